"""Pydantic's validation errors as sentences a person can act on, and the JSON a command may hold."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from app.rules.errors import InputError

_MESSAGES = {
    "missing": "is required",
    "extra_forbidden": "is not something this command takes",
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "float_type": "must be a number",
    "finite_number": "must be a finite number",
    "bool_parsing": "must be yes or no",
    "bool_type": "must be yes or no",
    "string_type": "must be text",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
}


def explain(error: ValidationError, prefix: str = "") -> str:
    """A pydantic error as one sentence a person can act on."""
    return explain_errors(error.errors(), prefix)


def explain_errors(errors: list[Any], prefix: str = "") -> str:
    parts = []
    for item in errors[:3]:
        where = ".".join(str(p) for p in item["loc"] if p not in ("body", "query", "path")) or "the input"
        kind = item["type"]
        ctx = item.get("ctx") or {}
        if kind in _MESSAGES:
            text = _MESSAGES[kind]
        elif kind in ("string_too_long", "too_long"):
            text = f"is too long (at most {ctx.get('max_length')})"
        elif kind in ("string_too_short", "too_short"):
            text = (
                "cannot be empty"
                if ctx.get("min_length") == 1
                else f"is too short (at least {ctx.get('min_length')})"
            )
        elif kind == "greater_than_equal":
            text = f"must be at least {ctx.get('ge')}"
        elif kind == "less_than_equal":
            text = f"must be at most {ctx.get('le')}"
        elif kind == "greater_than":
            text = f"must be more than {ctx.get('gt')}"
        elif kind == "literal_error":
            text = f"must be one of {ctx.get('expected')}"
        elif kind == "value_error":
            text = str(ctx.get("error") or item["msg"]).removeprefix("Value error, ")
        else:
            msg = str(item.get("msg") or "is not valid")
            text = msg[0].lower() + msg[1:]
        parts.append(text if kind == "value_error" and where == "the input" else f"{where} {text}")
    sentence = "; ".join(parts)
    return f"{prefix}{sentence[0].upper()}{sentence[1:]}." if sentence else f"{prefix}Invalid input."


MAX_DEPTH = 32  # nesting a command may have (set-ups are a few levels deep)
# Control characters other than line breaks and tabs: PostgreSQL cannot store a NUL, and none is text.
CONTROL = frozenset(chr(c) for c in (*range(0, 9), 11, 12, *range(14, 32), 127))


def check_json(value: Any, depth: int = 0) -> None:
    """Refuse what could be stored but not read back: text that is not Unicode, nesting past reason."""
    if depth > MAX_DEPTH:
        raise InputError(f"The command is nested more than {MAX_DEPTH} levels deep.")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise InputError("The command holds text that is not valid Unicode (a lone surrogate).") from None
        if not CONTROL.isdisjoint(value):  # one pass in C, not a generator step per character
            raise InputError("The command holds a control character (such as NUL): take it out.")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            check_json(key, depth + 1)
            check_json(item, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            check_json(item, depth + 1)
