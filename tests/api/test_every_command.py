"""Junk sent to every command of every game system gets a 4xx sentence, never a 500, and changes nothing.

Each system's demo campaign (the table `fray demo` builds, with seeded server dice) is set to manual dice.
Play goes on a few steps from there (server dice for each step), and at each step the GM and a player
send junk to what the table offers then; then every command type of the game gets an empty command, an
unknown extra field, and its fields in turn set to wrong-typed, out-of-range or unknown values (inside
the nested set-up data too). A junk command the rules accept may change the table; one they refuse must
leave the log's seq where it was. The junk is a fixed sample (about 1,900 requests in all); pass
budget=None to the test function to send all of it.
The same demo tables check that a player's view and events hold none of the GM's secrets.
"""

from __future__ import annotations

import json
import random
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import BaseModel

from app.demo import _with_seats, create_demo
from app.rules import registry
from app.rules.system import CommandSpec
from app.services.rollers import SeededRoller
from tests.helpers import Seat, Table

SYSTEMS = list(registry.systems())
BUDGET = 80  # junk commands per system (beyond an empty one and an extra field) for every type
STEPS, STEP_BUDGET = 3, 25  # then junk to what the table offers, at each of a few steps of play
UNKNOWN = "zz-nobody"  # an id or name nothing at any table has
LONG = "y" * 5000
BASE = {"type", "command_id", "dice"}
# Commands that take away what later junk still needs run last.
LAST_WORDS = ("remove", "end", "undo", "leave", "retire", "defeat", "kill")

# --- junk by kind of field ---------------------------------------------------------------------

JUNK: dict[str, list[Any]] = {
    "str": [UNKNOWN, "", LONG, -1, 1.5, [], {}, None],
    "int": [-1, 10**9, -(10**9), 10**30, 1.5, float("inf"), "x", [], {}, None],
    "float": [-1.0, 1e308, -1e308, 10**30, float("nan"), float("inf"), "x", [], None],
    "bool": ["x", 2, [], None],
    "choice": ["x", "", 1, [], None],
    "list": [[UNKNOWN], "x", [None], [[]], [LONG], [-1], {}, list(range(500))],
    "dict": [[], "x", {"x": 1}, {"": None}, {UNKNOWN: -1}, None],
    "model": [[], "x", {}, {"x": 1}, None],
    "any": [UNKNOWN, -1, 10**9, 1.5, float("nan"), [], {}, None, "", LONG],
}
EMPTY: dict[str, Any] = {"str": "", "int": 0, "float": 0.0, "bool": False, "list": [], "dict": {}}


def _kind(annotation: Any) -> str:
    """What a model field holds: str, int, float, bool, choice, list, dict, model or any."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _kind(args[0]) if len(args) == 1 else "any"
    if origin is typing.Literal:
        return "choice"
    if origin is typing.Annotated:
        return _kind(typing.get_args(annotation)[0])
    if origin in (tuple, list, set, frozenset):
        return "list"
    if origin is dict or annotation is dict:
        return "dict"
    if isinstance(annotation, type):
        if issubclass(annotation, BaseModel):
            return "model"
        for kind in (bool, int, float, str):  # bool before int: bool is an int
            if issubclass(annotation, kind):
                return kind.__name__
    return "any"


def _guess(annotation: Any, name: str, pc: str) -> Any:
    """A plausible value for a required field the demo does not show: a character, 1, the first choice."""
    kind = _kind(annotation)
    if kind == "choice":
        base = annotation
        if typing.get_origin(base) in (typing.Union, types.UnionType):
            base = next(a for a in typing.get_args(base) if a is not type(None))
        return typing.get_args(base)[0]
    if kind == "model":
        model = annotation
        if typing.get_origin(model) in (typing.Union, types.UnionType):
            model = next(a for a in typing.get_args(model) if a is not type(None))
        return _baseline_of(model, pc)
    return {"str": pc, "int": 1, "float": 1.0, "bool": False, "any": pc}.get(kind, EMPTY.get(kind))


def _baseline_of(model: type[BaseModel], pc: str) -> dict[str, Any]:
    return {
        name: _guess(f.annotation, name, pc)
        for name, f in model.model_fields.items()
        if f.is_required() and name not in BASE
    }


def _variants(baseline: dict[str, Any], spec: CommandSpec) -> list[tuple[str, dict[str, Any]]]:
    """(what, payload) for each junk command of one type: every field in turn, then one level deeper."""
    out: list[tuple[str, dict[str, Any]]] = []
    fields = spec.model.model_fields
    for name, info in fields.items():
        if name in BASE:
            continue
        for value in JUNK[_kind(info.annotation)]:
            out.append((f"{name}={_short(value)}", {**baseline, name: value}))
    # Inside the nested data the demo itself sends: each key of a dict, each key of a list's first item.
    for path, where in _paths({k: v for k, v in baseline.items() if k not in BASE}):
        if len(path) > 1:
            for junk in JUNK["any"]:
                out.append((f"{where}={_short(junk)}", _replace(baseline, path, junk)))
    if spec.rolls:
        for dice in ([0], [7, 7, 7, 7], [-1], [10**9], "x y", [1.5], [[]], list(range(1, 201))):
            out.append((f"dice={_short(dice)}", {**baseline, "dice": dice}))
    return out


def _paths(value: Any, path: tuple = (), depth: int = 4) -> list[tuple[tuple, str]]:
    """Every place inside nested data (dict keys, and the first item of lists), up to a depth."""
    out: list[tuple[tuple, str]] = []
    if depth == 0:
        return out
    if isinstance(value, dict):
        steps = list(value.items())
    elif isinstance(value, list | tuple) and value:
        steps = [(0, value[0])]
    else:
        return out
    for key, inner in steps:
        here = (*path, key)
        out.append((here, ".".join(str(k) for k in here)))
        out.extend(_paths(inner, here, depth - 1))
    return out


def _replace(value: Any, path: tuple, junk: Any) -> Any:
    if not path:
        return junk
    key, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, key: _replace(value[key], rest, junk)}
    items = list(value)
    items[key] = _replace(items[key], rest, junk)
    return items


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 24 else f"{text[:20]}...({len(text)})"


# --- what a refusal must look like -------------------------------------------------------------

RULE = re.compile(r"\s*\([A-Z]+(-[A-Z0-9]+)+\)$")  # the rule a refusal cites: "... (TC-B-2)"
UGLY = re.compile(
    r"input should be|unable to parse|errors\.pydantic|validationerror|traceback|\{'|\['|<class|"
    r"object at 0x|Field required|type=|NoneType|KeyError|IndexError|\bdict\b|\bint\b\(|\\n",
    re.IGNORECASE,
)


def _sentence_problem(detail: Any, type_: str) -> str | None:
    if not isinstance(detail, str) or not detail.strip():
        return f"detail is not a sentence: {detail!r}"
    text = RULE.sub("", detail.removeprefix(f"{type_}: ")).strip()
    if len(detail) > 400:  # the junk echoed back whole
        return f"detail is {len(detail)} characters long: {re.sub('y{20,}', 'yyy...', detail)[:300]!r}"
    if not text.endswith((".", "!", "?")) or (text[0].islower() and not text.startswith(UNKNOWN)):
        return f"detail is not a sentence: {detail!r}"
    if UGLY.search(detail):
        return f"detail reads like a program, not a person: {detail!r}"
    return None


# --- one system's demo table -------------------------------------------------------------------


@dataclass
class Run:
    table: Table
    player: Seat
    seq: int
    sent: int = 0
    problems: list[str] = field(default_factory=list)

    def send(self, seat: Seat, what: str, payload: dict[str, Any]) -> None:
        self.sent += 1
        who = "GM" if seat is self.table.gm else "player"
        try:
            r = self.table.http.post(
                f"/api/campaigns/{self.table.id}/commands",
                content=json.dumps(payload),  # NaN and Infinity too, as JavaScript's JSON.parse does not
                headers={**seat.auth, "content-type": "application/json"},
            )
        except Exception as error:  # the app raised: a 500 the test client re-raises
            self.problems.append(f"{payload['type']} {what} as {who}: 500 {type(error).__name__}: {error}")
            return
        if r.status_code >= 500 or not 200 <= r.status_code < 500 or 300 <= r.status_code < 400:
            self.problems.append(f"{payload['type']} {what} as {who}: {r.status_code} {r.text[:200]}")
            return
        if r.status_code >= 400:
            problem = _sentence_problem(r.json().get("detail"), payload["type"])
            if problem:
                self.problems.append(f"{payload['type']} {what} as {who}: {r.status_code} {problem}")
            return
        reply = r.json()
        if seat is self.table.gm:  # the GM sees every event, so its reply accounts for the whole change
            if reply["seq"] - len(reply["events"]) != self.seq:
                self.problems.append(
                    f"{payload['type']} {what}: the log moved from {self.seq} to "
                    f"{reply['seq'] - len(reply['events'])} before this command (a refusal changed it)"
                )
        else:
            batches = {e["batch"] for e in self.table.events(self.table.gm, after=self.seq)}
            if len(batches) > 1:
                self.problems.append(
                    f"{payload['type']} {what} as player: events of {batches} after a refusal"
                )
        self.seq = reply["seq"]

    def check_seq(self, type_: str) -> None:
        seq = self.table.view(self.table.gm)["campaign"]["seq"]
        if seq != self.seq:
            self.problems.append(f"{type_}: refused junk moved the log from {self.seq} to {seq}")
            self.seq = seq


def demo_table(client, key: str) -> tuple[Table, Seat, dict[str, Any]]:
    """The system's demo campaign, built as `fray demo` builds it, then switched to manual dice."""
    fray = client.app.state.fray
    roller = SeededRoller(key)  # the server's dice, the same every run
    fray.roller = lambda: roller
    demo = create_demo(fray, key, "http://testserver")
    campaign_id = demo.gm_link.split("/c/")[1].split("/")[0]
    gm = Seat(demo.gm_link.rsplit("/", 1)[1], "", "GM")
    table = Table(client, campaign_id, gm, demo.invite_url.rsplit("/", 1)[1], "")
    for name, link in demo.player_links:
        table.players[name] = Seat(link.rsplit("/", 1)[1], "", name)
    table.ok(gm, "campaign.settings", dice_mode="manual")
    gm_view = table.view(gm)
    for seat in [gm, *table.players.values()]:
        seat.seat_id = next(s["id"] for s in gm_view["seats"] if s["name"] == seat.name)
    return table, next(iter(table.players.values())), gm_view


def _baselines(key: str, table: Table, player: Seat, gm_view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A sensible payload per command type: the demo's own, else an option offered, else a guess."""
    script = registry.systems()[key].demo
    assert script is not None
    seats = {name: seat.seat_id for name, seat in table.players.items()}
    out: dict[str, dict[str, Any]] = {}
    for view in (gm_view, table.view(player)):
        for option in view["options"]:
            out.setdefault(option["command"]["type"], option["command"])
    for payload in script.commands:
        out[payload["type"]] = _with_seats(payload, seats)
    pc = next(p["name"] for p in gm_view["participants"] if p["owner"] == player.seat_id)
    for type_, spec in registry.game(key).commands.items():
        out.setdefault(type_, {"type": type_, **_baseline_of(spec.model, pc)})
    return out


def _order(types_: list[str]) -> list[str]:
    return sorted(types_, key=lambda t: any(word in t for word in LAST_WORDS))


def _secrets(key: str, gm_view: dict[str, Any], player_view: dict[str, Any]) -> list[str]:
    """What the demo keeps from the players: hidden or unseen characters' names, and NPC notes."""
    script = registry.systems()[key].demo
    assert script is not None
    marked = [
        text
        for c in script.commands
        if c["type"] == "campaign.add_participant"
        for text in ([c["name"]] if c.get("hidden") else []) + ([c["notes"]] if c.get("notes") else [])
    ]
    seen = {p["name"] for p in player_view["participants"]}
    unseen = [p["name"] for p in gm_view["participants"] if p.get("hidden") or p["name"] not in seen]
    notes = [p["notes"] for p in gm_view["participants"] if p.get("notes")]
    return sorted(set(marked + unseen + notes))


@pytest.mark.parametrize("key", SYSTEMS)
def test_players_see_none_of_the_demos_secrets(client, key):
    table, _, gm_view = demo_table(client, key)
    gm_text = json.dumps(gm_view)
    for player in table.players.values():
        view = table.view(player)
        texts = {"view": json.dumps(view), "events": json.dumps(table.events(player))}
        for secret in _secrets(key, gm_view, view):
            assert secret in gm_text, f"{key}: the GM does not see {secret!r}"
            for where, text in texts.items():
                assert secret not in text, f"{key}: {secret!r} reached {player.name}'s {where}"


def _offered(table: Table, seats: list[Seat]) -> list[tuple[Seat, dict[str, Any], bool]]:
    """(seat, command, enabled) for what each seat's view offers now: options, and answers to its prompts."""
    out = []
    for seat in seats:
        view = table.view(seat)
        for prompt in view["prompts"]:
            for choice in prompt.get("choices") or ():
                command = {"type": prompt["answer"], "prompt": prompt["id"], "choice": choice["key"]}
                out.append((seat, {**command, **choice.get("fields", {})}, True))
        for option in view["options"]:
            if not option.get("inputs"):
                out.append((seat, option["command"], option["enabled"]))
    return out


def _junk_plan(
    game_commands: dict[str, CommandSpec], offers: list[tuple[Seat, dict[str, Any]]], player: Seat, gm: Seat
) -> list[tuple[str, list[tuple[Seat, str, dict[str, Any]]]]]:
    """Per command type, the junk to send: its variants from a sensible payload, by the GM and a player."""
    plan = []
    for seat, baseline in offers:
        type_ = baseline["type"]
        spec = game_commands[type_]
        sends: list[tuple[Seat, str, dict[str, Any]]] = []
        for i, (what, payload) in enumerate(
            _variants({k: v for k, v in baseline.items() if k != "type"}, spec)
        ):
            # The GM sends every variant; a player, half of those of the commands players may use.
            if seat is gm:
                sends.append((gm, what, {"type": type_, **payload}))
            if not spec.gm_only and (seat is player or i % 2 == 0):
                sends.append((player, what, {"type": type_, **payload}))
        plan.append((type_, sends))
    return plan


def _sample(plan, budget: int | None, rng: random.Random, keep_first: int = 0):
    """About `budget` junk commands in all, at least one of every type, always its first `keep_first`."""
    total = sum(len(s) - keep_first for _, s in plan)
    if budget is None or total <= budget:
        return plan
    out = []
    for type_, sends in plan:
        junk = len(sends) - keep_first
        keep = min(junk, max(1, round(junk * budget / total)))
        picked = sorted(rng.sample(range(keep_first, len(sends)), keep))
        out.append((type_, sends[:keep_first] + [sends[i] for i in picked]))
    return out


def _advance(run: Run, offers: list[tuple[Seat, dict[str, Any], bool]], key: str, rng: random.Random) -> bool:
    """Play on with one thing offered (on server dice for the moment): answers first, then moves."""
    table = run.table
    candidates = [(seat, cmd) for seat, cmd, enabled in offers if enabled and cmd["type"].startswith(key)]
    answers = [(seat, cmd) for seat, cmd in candidates if "prompt" in cmd and seat is not table.gm]
    rng.shuffle(candidates)
    # The GM's own buttons that need nothing filled in (next turn, roll Initiative), when nothing else moves.
    nudges = [
        (table.gm, {"type": type_})
        for type_, spec in registry.game(key).commands.items()
        if type_.startswith(key)
        and not any(word in type_ for word in LAST_WORDS)
        and not any(f.is_required() for name, f in spec.model.model_fields.items() if name != "type")
    ]
    rng.shuffle(nudges)
    for seat, command in (answers[:2] + candidates)[:6] + nudges:
        run.send(table.gm, "(server dice)", {"type": "campaign.settings", "dice_mode": "server"})
        before = run.seq
        run.send(seat, "(play on)", command)
        run.send(table.gm, "(manual dice)", {"type": "campaign.settings", "dice_mode": "manual"})
        if run.seq > before + 1:
            return True
    return False


@pytest.mark.parametrize("key", SYSTEMS)
def test_junk_to_every_command_gets_a_sentence_and_changes_nothing(
    client, key, budget=BUDGET, steps=STEPS, step_budget=STEP_BUDGET
):
    table, player, gm_view = demo_table(client, key)
    game = registry.game(key)
    rng = random.Random(key)  # the same sample every run
    run = Run(table, player, gm_view["campaign"]["seq"])
    # Play on a few steps from the demo table, each time sending junk to what the table offers then.
    for _ in range(steps):
        offers = _offered(table, [table.gm, player])
        unique = list({(seat.token, cmd["type"]): (seat, cmd) for seat, cmd, _ in offers}.values())
        step = _sample(_junk_plan(game.commands, unique, player, table.gm), step_budget, rng)
        for _, sends in step:
            for seat, what, payload in sends:
                run.send(seat, what, payload)
        run.check_seq(", ".join(type_ for type_, _ in step))
        if not _advance(run, _offered(table, [table.gm, *table.players.values()]), key, rng):
            break
    # Then every command type, those that take things away last.
    baselines = _baselines(key, table, player, table.view(table.gm))
    plan = []
    for type_ in _order(list(game.commands)):
        firsts = [
            (table.gm, "{}", {"type": type_}),
            (player, "{}", {"type": type_}),
            (table.gm, "+extra", {**baselines[type_], "extra_field": 1}),
        ]
        [(_, junk)] = _junk_plan(game.commands, [(table.gm, baselines[type_])], player, table.gm)
        plan.append((type_, firsts + junk))
    for type_, sends in _sample(plan, budget, rng, keep_first=3):
        for seat, what, payload in sends:
            run.send(seat, what, payload)
        run.check_seq(type_)
    assert not run.problems, (
        f"{key}: {len(run.problems)} of {run.sent} junk commands went wrong:\n" + "\n".join(run.problems)
    )


# Junk that once reached a 500 or came back as a page of itself.
ONCE_BROKE = [
    (
        "triptycho",
        {
            "type": "campaign.encounter.prepare",
            "name": "Again",
            "setup": {"map": "cliff", "placements": {"Aria": 3}},
        },
        "sections",
    ),
    (
        "triptycho",
        {
            "type": "campaign.encounter.prepare",
            "name": "Again",
            "setup": {"map": "cliff", "placements": {"Aria": [[]]}},
        },
        "sections",
    ),
    (
        "triptycho",
        {
            "type": "campaign.encounter.prepare",
            "name": "Again",
            "setup": {"map": "cliff", "placements": {"Aria": None}},
        },
        "sections",
    ),
    ("fivebyfive", {"type": "fivebyfive.move", "participant": "Aria", "x": "x", "y": 1}, "must be a number"),
    (
        "fivebyfive",
        {"type": "fivebyfive.move", "participant": "Aria", "x": float("nan"), "y": 1},
        "finite number",
    ),
    ("generic", {"type": "generic.pool.adjust", "pool": "Luck", "delta": float("inf")}, "finite number"),
    ("generic", {"type": "generic.pool.adjust", "pool": LONG, "delta": 1}, "no pool"),
    ("tote", {"type": "tote.roll_initiative", "participant": LONG}, "no character"),
]


@pytest.mark.parametrize(("key", "payload", "words"), ONCE_BROKE)
def test_junk_that_once_broke_a_command(client, key, payload, words):
    table, _, gm_view = demo_table(client, key)
    run = Run(table, table.gm, gm_view["campaign"]["seq"])
    r = table.http.post(
        f"/api/campaigns/{table.id}/commands",
        content=json.dumps(payload),
        headers={**table.gm.auth, "content-type": "application/json"},
    )
    assert 400 <= r.status_code < 500, r.text
    detail = r.json()["detail"]
    assert _sentence_problem(detail, payload["type"]) is None, detail
    assert words in detail, detail
    run.check_seq(payload["type"])
    assert not run.problems
