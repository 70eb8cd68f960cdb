"""The three sample maps that ship with the demo (from the seed's examples)."""

from __future__ import annotations

from app.rules.triptycho.board import BattleMap, Border, Section


def _box(x0: int, y0: int, x1: int, y1: int) -> tuple[tuple[int, int], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


HALLWAY = BattleMap(
    id="hallway",
    name="Three-section hallway",
    grid=4,
    sections=(
        Section(id="west", name="West end", points=_box(0, 0, 4, 4)),
        Section(id="middle", name="Middle", points=_box(4, 0, 8, 4)),
        Section(id="east", name="East end", points=_box(8, 0, 12, 4)),
    ),
)

CHASM = BattleMap(
    id="chasm",
    name="The chasm",
    grid=4,
    sections=(
        Section(id="near", name="Near ledge", points=_box(0, 0, 6, 8)),
        Section(id="chasm", name="Chasm floor", points=_box(6, 0, 10, 8), light="shadowy"),
        Section(id="far", name="Far ledge", points=_box(10, 0, 16, 8)),
        Section(id="alcove", name="Alcove", points=_box(10, 8, 16, 12), light="shadowy"),
    ),
    borders=(
        Border(a="near", b="chasm", height=-6),
        Border(a="chasm", b="far", height=6),
        Border(a="far", b="alcove", kind="hard"),
    ),
)

CLIFF = BattleMap(
    id="cliff",
    name="Cliff in a dark cave",
    grid=4,
    sections=(
        Section(id="floor", name="Cave floor", points=_box(0, 0, 6, 6), light="dark"),
        Section(id="ledge", name="Ledge", points=_box(6, 0, 10, 6), light="dark"),
        Section(id="top", name="Clifftop", points=_box(10, 0, 16, 6), light="dark"),
        Section(id="pool", name="Black pool", points=_box(0, 6, 6, 10), light="dark", water=True),
        Section(id="mouth", name="Cave mouth", points=_box(6, 6, 10, 10), light="shadowy"),
    ),
    borders=(
        Border(a="floor", b="ledge", height=1),
        Border(a="ledge", b="top", height=2, climb="1d8"),
        Border(a="ledge", b="mouth", height=-1),
    ),
)

SAMPLES: tuple[BattleMap, ...] = (HALLWAY, CHASM, CLIFF)
