"""create_app(settings) -> FastAPI: wire settings, database, broker, hub and routers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig
from starlette.middleware.gzip import GZipMiddleware

from app.realtime import render
from app.realtime.broker import make_broker
from app.realtime.hub import Hub
from app.realtime.loop_watch import LoopWatch
from app.realtime.render import ROOT
from app.rules import registry
from app.services.context import Fray
from app.services.rate_limits import buckets_for
from app.settings import Settings, get_settings
from app.store.db import Database, claim_sqlite, is_sqlite
from app.store.states import StateCache
from app.web import errors, live, openapi, pages
from app.web.api import ROUTERS
from app.web.gate import Gate
from app.web.quick_commands import GZIP_LEVEL, GZIP_MINIMUM, QuickCommands

# FastAPI asks on every request whether OpenTelemetry is configured, unless told there is nothing to send.
TELEMETRY_OFF: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False, "operation_spans": False}


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    fray = Fray(
        settings=settings,
        db=Database(settings.database_url),
        broker=make_broker(settings.broker_url),
        states=StateCache(settings.snapshot_every),
        limits=buckets_for(settings.broker_url),
    )
    watch = LoopWatch()
    hub = Hub(fray.db, fray.states, settings.log_page, busy=watch.wake)
    render.warm(list(registry.systems()))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if is_sqlite(settings.database_url) and settings.broker_url.startswith("memory"):
            app.state.sqlite_claim = claim_sqlite(settings.database_url)
        fray.broker.on_signal = hub.signal
        await fray.broker.start(hub.notify, hub.resync)
        watch.start()
        yield
        await watch.stop()
        await hub.close()
        await fray.broker.stop()
        await fray.limits.close()
        fray.db.dispose()

    app = FastAPI(
        title="Fray",
        summary="A rules-aware virtual tabletop.",
        version="0.1.0",
        lifespan=lifespan,
        telemetry=None if settings.telemetry else TELEMETRY_OFF,
    )
    app.state.fray, app.state.hub = fray, hub
    errors.install(app)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL)
    app.add_middleware(QuickCommands)  # the gate applies to it as to the routes; it gzips its own replies
    app.add_middleware(
        Gate,
        watch=watch,
        public_url=settings.public_url,
        max_bytes=settings.max_body_bytes,
        upload_bytes=settings.max_upload_bytes,
    )
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    for router in (*ROUTERS, live.router, pages.router):
        app.include_router(router)

    # The loop's longest stall since the last look (milliseconds): how long one table held up the others.
    async def health() -> dict[str, str | float]:
        return {"status": "ok", "loop_stall_ms": watch.report()}

    app.add_api_route("/healthz", health, methods=["GET"], tags=["health"])
    openapi.install(app)
    return app
