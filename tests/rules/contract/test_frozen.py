"""A value derived from an immutable model is kept on the model (app/rules/contract/frozen.py): made once
for what it was made of, made afresh for a copy that differs, and invisible to dumps and equality."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.rules.contract.frozen import Frozen, kept, kept_table, kept_whole


class Pair(Frozen):
    left: tuple[int, ...] = ()
    right: str = ""


def test_a_frozen_model_refuses_change_and_unknown_fields():
    pair = Pair(left=(1,), right="a")
    with pytest.raises(ValidationError):
        pair.right = "b"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        Pair(left=(1,), middle=2)  # type: ignore[call-arg]


def test_a_kept_value_is_made_once_for_its_basis():
    pair = Pair(left=(1, 2))
    made: list[int] = []

    def build() -> int:
        made.append(1)
        return sum(pair.left)

    assert kept(pair, "_sum", (pair.left,), build) == 3
    assert kept(pair, "_sum", (pair.left,), build) == 3
    assert len(made) == 1


def test_a_copy_with_another_basis_makes_its_own_and_one_with_the_same_shares():
    pair = Pair(left=(1, 2), right="x")
    kept(pair, "_sum", (pair.left,), lambda: sum(pair.left))
    other = pair.model_copy(update={"left": (5,)})
    assert kept(other, "_sum", (other.left,), lambda: sum(other.left)) == 5
    renamed = pair.model_copy(update={"right": "y"})  # the same left tuple: the value stands
    assert kept(renamed, "_sum", (renamed.left,), lambda: -1) == 3
    assert kept(pair, "_sum", (pair.left,), lambda: -1) == 3


def test_a_value_of_the_whole_model_is_never_a_copys():
    pair = Pair(left=(1,), right="a")
    assert kept_whole(pair, "_dump", lambda: pair.model_dump()) == {"left": (1,), "right": "a"}
    copy = pair.model_copy(update={"right": "b"})
    assert kept_whole(copy, "_dump", lambda: copy.model_dump()) == {"left": (1,), "right": "b"}
    assert kept_whole(pair, "_dump", lambda: {}) == {"left": (1,), "right": "a"}


def test_what_is_kept_leaves_dumps_and_equality_alone():
    pair, same = Pair(left=(1,), right="a"), Pair(left=(1,), right="a")
    kept(pair, "_sum", (pair.left,), lambda: 1)
    kept_whole(pair, "_dump", lambda: pair.model_dump())
    kept_whole(same, "_dump", lambda: same.model_dump())
    assert pair == same and pair.model_dump() == same.model_dump() == {"left": (1,), "right": "a"}
    assert pair.model_dump_json() == '{"left":[1],"right":"a"}'
    assert pair != Pair(left=(2,), right="a")


def test_a_kept_table_is_shared_by_copies_and_starts_afresh_past_its_limit():
    pair = Pair()
    table = kept_table(pair, "_parts", limit=2)
    table["a"] = 1
    assert kept_table(pair.model_copy(update={"right": "z"}), "_parts", limit=2) is table
    table.update(b=2, c=3)
    assert kept_table(pair, "_parts", limit=2) == {}
