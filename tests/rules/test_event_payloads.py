"""Every event type has a payload model; every recorded and demo event parses into it, fully named;
every upcaster step is tested, and old records replay to what they always meant."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.demo import _with_seats
from app.rules import events as payloads
from app.rules import registry
from app.rules.events import Payload, UnknownEvent
from app.rules.game import Game
from app.rules.system import Ctx, Event, Viewer
from app.services import transfer
from app.services.rollers import SeededRoller

CORPUS = sorted((Path(__file__).parents[1] / "golden").glob("*/*.fray.json.gz"))  # every corpus


def _corpus_events() -> list[tuple[str, dict[str, Any]]]:
    """(system, record) for every event of every golden log, as stored (no upcasting)."""
    out = []
    for path in CORPUS:
        document = transfer.read_file(path.read_bytes())
        out += [(document["campaign"]["system"], record) for record in document["events"]]
    return out


def _demo_events(key: str) -> list[Event]:
    """A system's demo table (`fray demo`) played in memory with seeded dice: the events it writes."""
    game = registry.game(key)
    script = game.system.demo
    assert script is not None
    made: list[tuple[str, dict[str, Any]]] = [
        (
            "campaign.created",
            {"id": "demo", "name": script.name, "system": key, "dice_mode": "server"}
            | {"settings": game.default_settings()},
        ),
        ("campaign.seat_joined", {"seat": {"id": "seat-gm", "name": "GM", "role": "gm"}}),
    ]
    seats = {name: f"seat-{i}" for i, name in enumerate(script.players)}
    made += [
        ("campaign.seat_joined", {"seat": {"id": seat, "name": name, "role": "player"}})
        for name, seat in seats.items()
    ]
    events = [Event(seq=i, batch=i, type=t, data=d) for i, (t, d) in enumerate(made, 1)]
    state = game.replay(None, events)
    ctx = Ctx(roller=SeededRoller(key), actor=Viewer(seat_id="seat-gm", role="gm"))
    for command in script.commands:
        _, parsed = game.parse(_with_seats(command, seats))
        first = len(events) + 1
        for i, new in enumerate(game.decide(state, parsed, ctx)):
            event = Event(
                seq=first + i,
                batch=first,
                type=new.type,
                data=new.data,
                audience=new.audience,
                version=payloads.current_version(new.type),
                encounter=new.encounter or state.active_encounter,
            )
            events.append(event)
            state = game.evolve(state, event)
    return events


DEMOS = [key for key, part in registry.systems().items() if part.demo is not None]


def test_every_event_type_a_rule_folds_or_tells_has_a_payload_model():
    types: set[str] = set()
    for key in registry.systems():
        game = registry.game(key)
        types |= set(game.reducers) | set(game.describers)
    types |= {record["type"] for _, record in _corpus_events()}
    missing = sorted(t for t in types if t not in payloads.PAYLOADS)
    assert not missing, f"event types without a payload model: {missing}"
    assert len(types) >= 160
    for type_, model in payloads.PAYLOADS.items():
        assert issubclass(model, Payload) and type_ == model.TYPE and model.VERSION >= 1


def test_an_event_read_before_any_game_system_is_loaded_still_finds_its_model():
    # A fresh interpreter that imports only the event class, as a store read or a file import may.
    code = (
        "from app.rules import events\n"
        "from app.rules.system import Event\n"
        "print(events.model_of(Event(seq=1, type='triptycho.hand_dealt').type).__module__)\n"
    )
    root = Path(__file__).parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True)
    assert out.stdout.strip() == "app.rules.triptycho.events"


def test_an_event_type_without_a_model_is_refused():
    with pytest.raises(UnknownEvent):
        payloads.parse("nowhere.happened", {})
    with pytest.raises(UnknownEvent):
        _ = Event(seq=1, type="nowhere.happened", data={}).payload


def _fully_named(type_: str, parsed: Payload) -> None:
    assert not parsed.model_extra, (
        f"{type_} carries fields its payload model does not name: {parsed.model_extra}"
    )


def test_every_golden_event_upcasts_and_parses_into_its_model_naming_every_field():
    records = _corpus_events()
    assert len(records) > 100
    for _, record in records:
        event = Event(
            seq=record["seq"], type=record["type"], data=record["data"], version=record.get("version", 1)
        )
        assert event.version == payloads.current_version(event.type)
        _fully_named(event.type, event.payload)


@pytest.mark.parametrize("key", DEMOS)
def test_every_demo_event_parses_into_its_model_naming_every_field(key):
    events = _demo_events(key)
    assert len(events) > 3
    for event in events:
        _fully_named(event.type, event.payload)


def test_a_decider_that_writes_a_payload_its_model_refuses_fails_before_anything_is_stored():
    game = Game(registry.systems()["generic"])
    state = game.replay(
        None,
        [
            Event(
                seq=1,
                type="campaign.created",
                data={"id": "c", "name": "C", "system": "generic", "dice_mode": "server", "settings": {}},
            ),
            Event(seq=2, type="campaign.seat_joined", data={"seat": {"id": "gm", "name": "G", "role": "gm"}}),
        ],
    )
    spec, command = game.parse({"type": "generic.pool.create", "name": "Luck", "value": 2})
    ctx = Ctx(roller=SeededRoller(1), actor=Viewer(seat_id="gm", role="gm"))
    assert game.decide(state, command, ctx)  # as written, it fits

    real = spec.decide

    def broken(state, command, ctx):
        made = real(state, command, ctx)
        return [e.model_copy(update={"data": {**e.data, "pool": "not an object"}}) for e in made]

    object.__setattr__(spec, "decide", broken)
    try:
        with pytest.raises(ValueError, match="pool"):
            game.decide(state, command, ctx)
    finally:
        object.__setattr__(spec, "decide", real)


@pytest.mark.parametrize(
    ("type_", "data"),
    [
        # An NPC's Victory Rush leaves its numbers out (the GM keeps them): fivebyfive/hits.py, flow.py.
        ("fivebyfive.rushed", {"participant": "p3", "name": "Goblin", "ability": "grace", "prompt": None}),
        # The players spend Good karma for no one character: trinity/commands.py.
        ("trinity.good_spent", {"character": None, "who": "The players", "reason": "luck"}),
    ],
)
def test_fields_a_decider_leaves_out_or_empty_on_some_path_are_optional_in_the_model(type_, data):
    parsed = payloads.parse(type_, data)
    assert not parsed.model_extra


def test_payload_is_reparsed_when_data_is_replaced():
    event = Event(seq=1, type="campaign.participant_noted", data={"participant": "p1", "notes": "old"})
    assert event.payload.notes == "old"
    changed = event.model_copy(update={"data": {"participant": "p1", "notes": "new"}})
    assert changed.payload.notes == "new"
    assert event.payload.notes == "old"


def test_public_shape_is_unchanged_by_versions():
    event = Event(seq=3, type="campaign.participant_noted", data={"participant": "p1", "notes": "x"})
    assert set(event.public()) == {"seq", "type", "data", "actor", "encounter", "batch", "at"}


# --- upcasting: the machinery, with a part that exists only in this test ------------------------


def test_upcasting_runs_every_step_in_order_and_refuses_a_gap_or_a_newer_version(monkeypatch):
    monkeypatch.setattr(payloads, "PAYLOADS", dict(payloads.PAYLOADS))
    monkeypatch.setattr(payloads, "UPCASTERS", dict(payloads.UPCASTERS))

    @payloads.payload("testonly.moved", version=3)
    class Moved(Payload):
        to: tuple[int, int]

    @payloads.upcaster("testonly.moved", 1)
    def v1_to_v2(data):  # v1 said "where": "3,4"
        x, y = data.pop("where").split(",")
        return {**data, "x": int(x), "y": int(y)}

    @payloads.upcaster("testonly.moved", 2)
    def v2_to_v3(data):  # v2 had x and y apart
        return {"to": [data.pop("x"), data.pop("y")], **data}

    assert payloads.upcast("testonly.moved", 1, {"where": "3,4"}) == (3, {"to": [3, 4]})
    assert payloads.upcast("testonly.moved", 2, {"x": 3, "y": 4}) == (3, {"to": [3, 4]})
    assert payloads.upcast("testonly.moved", 3, {"to": [3, 4]}) == (3, {"to": [3, 4]})
    old = Event(seq=1, type="testonly.moved", data={"where": "3,4"}, version=1)  # a stored v1 record
    assert old.version == 3 and old.data == {"to": [3, 4]} and old.payload.to == (3, 4)
    fresh = Event(seq=2, type="testonly.moved", data={"to": [1, 2]})  # built in memory: today's shape
    assert fresh.version == 3 and fresh.payload.to == (1, 2)
    with pytest.raises(UnknownEvent, match="newer"):
        payloads.upcast("testonly.moved", 4, {})
    del payloads.UPCASTERS[("testonly.moved", 2)]
    with pytest.raises(UnknownEvent, match="no upcaster"):
        payloads.upcast("testonly.moved", 1, {"where": "3,4"})


# --- the real upcasters: every step from version 1 to today exists and has its own test ----------------

UPCASTER_TESTS = {
    ("triptycho.card_played", 1): (
        "tests/rules/triptycho/test_turn.py",
        "test_a_card_played_recorded_at_v1_upcasts_to_v2_and_replays_to_the_same_table",
    ),
    ("map.settings_changed", 1): (
        "tests/rules/map/test_vision.py",
        "test_map_settings_recorded_at_v1_upcast_to_v2_and_replay_to_the_same_map",
    ),
}


def test_every_version_step_has_an_upcaster_and_the_upcaster_a_test():
    for type_, model in payloads.PAYLOADS.items():
        for version in range(1, model.VERSION):
            assert (type_, version) in payloads.UPCASTERS, f"{type_} has no upcaster from v{version}"
    assert set(payloads.UPCASTERS) == set(UPCASTER_TESTS), "name the test of each upcaster here"
    root = Path(__file__).parents[2]
    for path, name in UPCASTER_TESTS.values():
        assert f"def {name}(" in (root / path).read_text(), f"{path} has no {name}"


def test_no_reducer_reads_an_event_by_string_key():
    rules = Path(__file__).parents[2] / "app" / "rules"
    pattern = re.compile(r"\b(?:event|e|ev)\.data\b")
    offenders = [
        f"{path.relative_to(rules)}:{n}"
        for path in sorted(rules.glob("*/reducers.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert not offenders, f"reducers read event.data (read event.payload's fields): {offenders}"
