"""Validation errors as sentences, and the JSON a command may hold (app/rules/contract/validation.py)."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, Field, ValidationError, field_validator

from app.rules.contract.validation import MAX_DEPTH, check_json, explain
from app.rules.errors import InputError


class Form(BaseModel):
    model_config = {"extra": "forbid"}
    name: str = Field(min_length=1, max_length=5)
    count: int = Field(default=1, ge=1, le=9)
    colour: Literal["red", "blue"] = "red"
    note: str = ""

    @field_validator("note")
    @classmethod
    def _no_shouting(cls, value: str) -> str:
        if value.isupper():
            raise ValueError("the note is shouted: write it in lower case")
        return value


def _sentence(**data: object) -> str:
    with pytest.raises(ValidationError) as info:
        Form.model_validate(data)
    return explain(info.value, prefix="form: ")


@pytest.mark.parametrize(
    ("data", "sentence"),
    [
        ({}, "form: Name is required."),
        ({"name": ""}, "form: Name cannot be empty."),
        ({"name": "abcdefg"}, "form: Name is too long (at most 5)."),
        ({"name": "a", "count": "x"}, "form: Count must be a whole number."),
        ({"name": "a", "count": 0}, "form: Count must be at least 1."),
        ({"name": "a", "count": 10}, "form: Count must be at most 9."),
        ({"name": "a", "colour": "green"}, "form: Colour must be one of 'red' or 'blue'."),
        ({"name": "a", "size": 2}, "form: Size is not something this command takes."),
        ({"name": "a", "note": "LOUD"}, "form: Note the note is shouted: write it in lower case."),
    ],
)
def test_a_validation_error_reads_as_a_sentence(data: dict, sentence: str):
    assert _sentence(**data) == sentence


def test_at_most_three_faults_are_named_in_one_sentence():
    assert _sentence(count=0, colour="x", size=1, other=2) == (
        "form: Name is required; count must be at least 1; colour must be one of 'red' or 'blue'."
    )


@pytest.mark.parametrize(
    ("value", "sentence"),
    [
        ({"text": "a\x00b"}, "The command holds a control character (such as NUL): take it out."),
        (["\ud800"], "The command holds text that is not valid Unicode (a lone surrogate)."),
        ({"k\x07": 1}, "The command holds a control character (such as NUL): take it out."),
    ],
)
def test_text_that_cannot_be_stored_is_refused(value: object, sentence: str):
    with pytest.raises(InputError) as info:
        check_json(value)
    assert str(info.value) == sentence


def test_line_breaks_and_tabs_are_text_and_nesting_has_a_limit():
    check_json({"text": "one\ntwo\tthree\r\n"})
    deep: object = 1
    for _ in range(MAX_DEPTH):
        deep = [deep]
    check_json(deep)
    with pytest.raises(InputError, match=f"nested more than {MAX_DEPTH} levels"):
        check_json([deep])
