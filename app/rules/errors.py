"""Errors the rules raise for people to read."""


class RuleError(Exception):
    """An action the rules do not allow right now (HTTP 409 at the web layer)."""

    status = 409

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


class InputError(RuleError):
    """Input that cannot be understood: a bad dice expression, a face out of range (HTTP 422)."""

    status = 422


class Forbidden(RuleError):
    """The seat may not do this: a player doing the GM's part, or acting for another's character (403)."""

    status = 403


QUOTE_MAX = 40


def clipped(text: object, limit: int = QUOTE_MAX) -> str:
    """Something a person typed, cut short: a refusal never echoes a page of junk back."""
    text = str(text)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def quoted(text: object, limit: int = QUOTE_MAX) -> str:
    """Something a person typed, in quotes and cut short."""
    return f"'{clipped(text, limit)}'"
