"""Every error a person can meet is a sentence: JSON `{"detail": ...}`, or a flash for HTMX pages."""

from __future__ import annotations

import logging

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.realtime.render import render_template
from app.rules.errors import RuleError
from app.rules.system import explain_errors

logger = logging.getLogger("fray.web")

_HTTP_SENTENCES = {
    404: "There is nothing at this address.",
    405: "This address does not take that kind of request.",
}


def wants_html(request: Request) -> bool:
    return not request.url.path.startswith("/api/") and (
        "hx-request" in request.headers or "text/html" in request.headers.get("accept", "")
    )


def respond(
    request: Request, status: int, detail: str, rule: str | None = None
) -> JSONResponse | HTMLResponse:
    if wants_html(request):
        if "hx-request" in request.headers:
            # Swapped into the form's own message slot, next to the button that was pressed.
            message = render_template("partials/msg.html", {"message": detail, "kind": "error"})
            return HTMLResponse(message, status_code=status)
        page = render_template("pages/error.html", {"status": status, "detail": detail})
        return HTMLResponse(page, status_code=status)
    body: dict = {"detail": detail}
    if rule:
        body["rule"] = rule
    return JSONResponse(body, status_code=status)


SERVER_ERROR = "Something went wrong on the server; nothing was changed."


def install(app: FastAPI) -> None:
    @app.exception_handler(RuleError)
    async def rule_error(request: Request, error: RuleError) -> JSONResponse | HTMLResponse:
        response = respond(request, error.status, str(error), error.rule)
        retry_after = getattr(error, "retry_after", None)  # a rate limit says when to try again
        if retry_after:
            response.headers["Retry-After"] = str(retry_after)
        return response

    @app.exception_handler(RequestValidationError)
    async def validation_error(
        request: Request, error: RequestValidationError
    ) -> JSONResponse | HTMLResponse:
        errors = error.errors()
        if errors and errors[0].get("type") == "json_invalid":
            return respond(request, 422, "The request body is not valid JSON.")
        return respond(request, 422, explain_errors(list(errors)))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse | HTMLResponse:
        if error.status_code == 400 and error.detail == "There was an error parsing the body":
            # A body that is not UTF-8 (or not a form) is bad input like any other: the documented 422.
            return respond(request, 422, "The request body could not be read: send JSON in UTF-8.")
        detail = (
            error.detail
            if isinstance(error.detail, str) and error.detail != _default(error.status_code)
            else None
        )
        response = respond(
            request, error.status_code, detail or _HTTP_SENTENCES.get(error.status_code, "That did not work.")
        )
        for key, value in (getattr(error, "headers", None) or {}).items():
            response.headers[key] = value
        return response

    @app.exception_handler(OperationalError)
    async def database_away(request: Request, error: OperationalError) -> JSONResponse | HTMLResponse:
        # The database restarting or unreachable: nothing was written, and trying again will work.
        logger.warning("database unavailable on %s %s: %s", request.method, request.url.path, error)
        response = respond(request, 503, "The database is not answering right now; try again in a moment.")
        response.headers["Retry-After"] = "2"
        return response

    @app.exception_handler(Exception)
    async def server_error(request: Request, error: Exception) -> JSONResponse | HTMLResponse:
        logger.exception("unexpected error on %s %s", request.method, request.url.path)
        return respond(request, 500, SERVER_ERROR)


def _default(status: int) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


__all__ = ["HTTPException", "install", "respond", "wants_html"]
