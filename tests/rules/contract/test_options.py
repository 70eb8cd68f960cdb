"""Options with exact odds and choices left to someone (app/rules/contract/options.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.rules.contract.options import PLAYERS, Band, Prompt
from app.rules.contract.viewer import Viewer

GM = Viewer(seat_id="g", role="gm")
ANN = Viewer(seat_id="s1", role="player", participants=frozenset({"p1"}))
TV = Viewer(role="spectator")


@pytest.mark.parametrize(
    ("chance", "exact", "percent"),
    [
        (Fraction(1, 6), "1/6", "16.7%"),
        (Fraction(0), "0/1", "0%"),
        (Fraction(1), "1/1", "100%"),
        (Fraction(1, 2000), "1/2000", "<0.1%"),
    ],
)
def test_a_band_says_its_chance_exactly_and_as_a_person_reads_it(chance: Fraction, exact: str, percent: str):
    band = Band.of("hit", chance)
    assert (band.exact, band.percent) == (exact, percent)
    assert band.chance == chance


def _prompt(to: str) -> Prompt:
    return Prompt(id="x", to=to, kind="k", text="Pick", answer="a.b")


def test_a_prompt_is_seen_by_whom_it_is_for_and_the_gm():
    assert [_prompt("p1").visible_to(v) for v in (GM, ANN, TV)] == [True, True, False]
    assert [_prompt("p2").visible_to(v) for v in (GM, ANN, TV)] == [True, False, False]
    assert [_prompt("gm").visible_to(v) for v in (GM, ANN, TV)] == [True, False, False]


def test_a_prompt_to_the_players_is_seen_by_every_player_but_no_spectator():
    assert [_prompt(PLAYERS).visible_to(v) for v in (GM, ANN, TV)] == [True, True, False]
