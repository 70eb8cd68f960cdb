"""What each viewer may see: NPC sheets, hidden characters and (fog of war) NPCs out of the party's sight."""

from __future__ import annotations

import json

from app.rules.errors import Forbidden
from tests.rules.fivebyfive.harness import GOBLIN, Table, d5

WALL = {"name": "Wall", "rect": {"x": 12, "y": 0, "width": 1, "height": 24}}


def seen_tokens(t: Table, who: str) -> list[str]:
    return [x["name"] for x in t.view(who)["system"]["board"]["tokens"]]


def public_log(t: Table, who: str) -> str:
    return json.dumps([e.data for e in t.game.visible(t.events, t.viewer(who))])


def test_players_never_see_an_npcs_sheet_or_the_numbers_its_rolls_need(t: Table):
    t.round(Aria=1, Brick=2, Goblin=3)
    t.do("gm", "fivebyfive.strike", d5(1, 2), target="Aria")
    for who in ("ann", "ben", "spec"):
        (goblin,) = [c for c in t.view(who)["system"]["characters"] if c["name"] == "Goblin"]
        assert set(goblin) == {"participant", "name", "kind", "status", "mine"}
        assert "Strike 2 x Rage 2" not in public_log(t, who)
        (aria,) = [c for c in t.view(who)["system"]["characters"] if c["name"] == "Aria"]
        assert aria["current"] == {"rage": 3, "grace": 2, "precognition": 2}
    (goblin,) = [c for c in t.view("gm")["system"]["characters"] if c["name"] == "Goblin"]
    assert goblin["ranks"]["strike"] == 2
    assert "Strike 2 x Rage 2" in public_log(t, "gm")
    # The sheet event itself went to the GM only.
    sheets = [e for e in t.events if e.type == "fivebyfive.sheet_set" and e.data["name"] == "Goblin"]
    assert [e.audience for e in sheets] == ["gm"]


def test_fog_of_war_hides_an_npc_no_pc_can_see():
    t = Table().cast().start(terrain=[WALL], tokens={"Aria": [5, 5], "Goblin": [20, 5], "Brick": [10, 15]})
    assert seen_tokens(t, "ann") == ["Aria", "Brick"]
    assert seen_tokens(t, "spec") == ["Aria", "Brick"]
    assert seen_tokens(t, "gm") == ["Aria", "Goblin", "Brick"]
    t.round(Aria=1, Brick=2, Goblin=3)
    (moved,) = t.do("gm", "fivebyfive.move", x=17, y=5)
    assert moved.audience == "gm"
    # The Goblin does not exist for a player's attack either.
    t.do("gm", "fivebyfive.end_turn")
    error = t.refused("ben", "fivebyfive.aim", faces=d5(1, 1), target="Goblin")
    assert error.message == "There is no character 'Goblin'."
    assert not [o for o in t.options("ben") if o.startswith("aim-")]
    # The wall runs the length of the table; when the GM takes it away the Goblin is in sight.
    t.do("gm", "fivebyfive.remove_terrain", terrain="Wall")
    assert seen_tokens(t, "ben") == ["Aria", "Goblin", "Brick"]
    assert [o for o in t.options("ben") if o.startswith("aim-")] == [f"aim-{t.pid('Goblin')}"]


def test_an_npc_moving_into_sight_is_seen_and_fog_can_be_turned_off():
    t = (
        Table()
        .cast()
        .start(
            terrain=[{"name": "Wall", "rect": {"x": 12, "y": 0, "width": 1, "height": 8}}],
            tokens={"Aria": [5, 5], "Goblin": [15, 5], "Brick": [6, 5]},
        )
    )
    assert "Goblin" not in seen_tokens(t, "ann")
    t.round(Aria=1, Brick=2, Goblin=5)
    (moved,) = t.do("gm", "fivebyfive.move", x=15, y=7)  # still behind the wall
    assert moved.audience == "gm"
    (moved,) = t.do("gm", "fivebyfive.move", x=15, y=10)  # round its end: in sight
    assert moved.audience == "all"
    assert "Goblin" in seen_tokens(t, "ann")
    t2 = (
        Table(settings={"fog_of_war": False})
        .cast()
        .start(terrain=[WALL], tokens={"Aria": [5, 5], "Goblin": [20, 5], "Brick": [10, 15]})
    )
    assert "Goblin" in seen_tokens(t2, "ann")


def test_hidden_characters_are_invisible_and_must_be_revealed_to_attack():
    t2 = Table().cast()
    t2.do("gm", "campaign.add_participant", name="Sniper", kind="npc", hidden=True)
    (sheet,) = t2.do("gm", "fivebyfive.setup", participant="Sniper", **GOBLIN)
    assert sheet.audience == "gm"
    t2.do(
        "gm",
        "campaign.encounter.prepare",
        name="Ambush",
        participants=["Aria", "Brick", "Goblin", "Sniper"],
        setup={"tokens": {"Aria": [5, 5], "Goblin": [5.8, 5], "Brick": [10, 5], "Sniper": [30, 5]}},
    )
    t2.do("gm", "campaign.encounter.start", encounter="Ambush")
    events = t2.do("gm", "fivebyfive.roll_initiative", d5(1, 2, 3, 4))
    assert [(e.type, e.audience) for e in events] == [
        ("fivebyfive.round_started", "gm"),
        ("fivebyfive.initiative_shown", "all"),
        ("fivebyfive.turn_started", "gm"),
    ]
    for who in ("ann", "spec"):
        dump = json.dumps(t2.view(who), default=str) + public_log(t2, who)
        assert "Sniper" not in dump, who
    assert t2.view("ann")["system"]["fight"]["turn"] is None
    error = t2.refused("gm", "fivebyfive.aim", faces=d5(1, 1), target="Aria")
    assert error.message == "Sniper is hidden: reveal Sniper before attacking."
    (moved,) = t2.do("gm", "fivebyfive.move", x=28, y=5)
    assert moved.audience == "gm"
    t2.refused("ann", "fivebyfive.end_turn", Forbidden)
    t2.do("gm", "fivebyfive.end_turn")
    assert t2.turn == "Goblin"
    assert t2.refused(
        "gm", "fivebyfive.aim", faces=d5(1, 1), participant="Goblin", target="Sniper"
    ).message == ("Sniper is hidden: reveal Sniper before attacking it.")
    t2.do("gm", "fivebyfive.end_turn")
    t2.do("ben", "fivebyfive.end_turn")
    t2.do("ann", "fivebyfive.end_turn")
    t2.do("gm", "fivebyfive.roll_initiative", d5(1, 2, 3, 4))
    t2.do("gm", "campaign.set_hidden", participant="Sniper", hidden=False)
    t2.do("gm", "fivebyfive.aim", d5(5, 5), target="Aria")
    assert "Sniper" in json.dumps(t2.view("ann"))


def test_the_movement_circle_and_options_belong_to_the_current_player(t: Table):
    t.round(Aria=3, Brick=1, Goblin=2)
    turn = t.view("ann")["system"]["fight"]["turn"]
    assert (turn["name"], turn["mine"], turn["allowance"], turn["left"]) == ("Aria", True, 3, 3)
    assert turn["circle"] == {"x": 5, "y": 5, "r": 3}
    assert t.view("ben")["system"]["fight"]["turn"]["mine"] is False
    assert not [o for o in t.options("ben") if o in ("move", "end-turn")]
    assert t.options("spec") == {}
    gm = t.options("gm")
    assert "move" in gm  # the GM may act for anyone


def test_fog_of_war_conceals_an_unseen_npc_from_the_core_views_too():
    t = Table().cast().start(terrain=[WALL], tokens={"Aria": [5, 5], "Goblin": [20, 5], "Brick": [10, 15]})
    t.round(Aria=1, Brick=2, Goblin=3)  # the Goblin's turn, out of sight
    goblin = t.pid("Goblin")
    for who in ("ann", "spec"):
        assert t.game.system.conceals(t.state, t.viewer(who)) == {goblin}
        text = t.dump(who)
        assert "Goblin" not in text and goblin not in text  # not in the order, the participants, the turn
    assert t.game.system.conceals(t.state, t.viewer("gm")) == frozenset()
    assert "Goblin" in t.dump("gm")
    # The round's Initiative reached the players without the Goblin in it.
    shown = [e for e in t.events if e.type == "fivebyfive.initiative_shown"]
    assert shown and "Goblin" not in json.dumps(shown[-1].data)
    assert [e.audience for e in t.events if e.type == "fivebyfive.turn_started"][-1] == "gm"


def test_the_map_marks_each_legal_target_with_its_exact_chance_to_hit(t: Table):
    t.round(Aria=3, Brick=2, Goblin=1)
    targets = t.view("ann")["system"]["fight"]["turn"]["targets"]
    goblin = targets[t.pid("Goblin")]
    # Strike 2 x Rage 3 needs 6 or less: 23 of 36 rolls (the 11 with a 0 among them).
    assert goblin["legal"] and goblin["actions"]["strike"]["hit"] == "63.9%"
    assert goblin["actions"]["aim"] == {
        "enabled": False,
        "hit": None,
        "reason": goblin["actions"]["aim"]["reason"],
        "option": f"aim-{t.pid('Goblin')}",
    }
    assert "FX-O-1" in goblin["actions"]["aim"]["reason"]
    assert t.view("ben")["system"]["fight"]["turn"]["targets"] == {}
    assert t.view("spec")["system"]["fight"]["turn"]["targets"] == {}


def test_FX_O_2_control_the_hit_is_drawn_by_the_page_with_dice_and_odds(t: Table):
    t.round(Aria=3, Brick=2, Goblin=1)
    t.do("ann", "fivebyfive.strike", d5(2, 3), target="Goblin")
    prompt = t.prompt("control")
    assert prompt.drawn_by_system and prompt.choices[0].rolls
    (option,) = [o for o in t.options("gm").values() if o.command.get("prompt") == prompt.id]
    assert [b.label for b in option.odds] == ["Blocked the Hit", "Controlled", "Not controlled"]
    assert not [o for o in t.options("ann").values() if o.command.get("prompt") == prompt.id]
