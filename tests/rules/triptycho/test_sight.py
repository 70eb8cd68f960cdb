"""Illumination and sight, and what each viewer's map shows: TP-I-1..6."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.triptycho import sight
from app.rules.triptycho.board import BattleMap, Border, grid_map
from app.rules.triptycho.view import player_view
from app.rules.triptycho.world import can_see

from .conftest import BOW, DODGE, SLASH, Table

# hall (lit) | alcove (shadowy) | crypt (dark) | yard (lit), all in a row; a walled garden below the yard.
ROW = grid_map(
    "row",
    "Row",
    4,
    2,
    light={"c1r0": "shadowy", "c2r0": "dark"},
    borders=(
        Border(a="c3r0", b="c3r1", kind="hard"),
        Border(a="c2r0", b="c2r1", kind="hard"),
        Border(a="c1r0", b="c1r1", kind="hard"),
        Border(a="c0r0", b="c0r1", kind="hard"),
    ),
)
HALL, ALCOVE, CRYPT, YARD, GARDEN = "c0r0", "c1r0", "c2r0", "c3r0", "c3r1"


def scene(**aria_senses) -> Table:
    t = Table()
    t.add("Aria", "ann", cards=[BOW, SLASH], uses_deck=False, **aria_senses)
    t.add("Brick", "ben", cards=[SLASH], uses_deck=False)
    t.add("Gob", None, kind="npc", cards=[SLASH, DODGE])
    t.board(ROW)
    t.place("Aria", HALL)
    t.place("Brick", HALL)
    return t


# --- TP-I-1 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-I-1")
def test_TP_I_1_lit_sections_and_their_occupants_are_seen_along_a_line_of_sight():
    """TP-I-1: lit sections are seen with their occupants, from anywhere in sight."""
    t = scene()
    t.place("Gob", YARD)
    assert t.seen("ann") == {"Aria", "Brick", "Gob"}
    t.place("Gob", GARDEN)  # lit, but behind the wall
    assert t.seen("ann") == {"Aria", "Brick"}
    t.place("Aria", "c0r1")  # now in the garden row: the garden is in sight
    assert "Gob" in t.seen("ann")


@pytest.mark.rule("TP-I-1")
def test_TP_I_1_shadowy_occupants_are_seen_only_by_other_occupants_but_the_terrain_is_seen():
    """TP-I-1: in a shadowy section only fellow occupants see you; its ground is seen from outside."""
    t = scene()
    t.place("Gob", ALCOVE)
    assert t.seen("ann") == {"Aria", "Brick"}
    (alcove,) = [s for s in t.view("ann")["system"]["board"]["sections"] if s["id"] == ALCOVE]
    assert alcove["seen"] is True and alcove["light"] == "shadowy"
    t.place("Brick", ALCOVE)
    assert "Gob" in t.seen("ben")
    assert "Gob" not in t.seen("ann")


@pytest.mark.rule("TP-I-1")
def test_TP_I_1_dark_sections_hide_their_ground_and_occupants_even_from_each_other():
    """TP-I-1: a dark section is not seen unless entered, and its occupants do not see each other."""
    t = scene()
    t.place("Gob", CRYPT)
    sections = {s["id"]: s for s in t.view("ann")["system"]["board"]["sections"]}
    assert sections[CRYPT]["seen"] is False and sections[CRYPT]["water"] is None
    assert sections[YARD]["seen"] is True
    t.place("Brick", CRYPT)
    assert "Gob" not in t.seen("ben")  # together in the dark, still unseen
    sections = {s["id"]: s for s in t.view("ben")["system"]["board"]["sections"]}
    assert sections[CRYPT]["seen"] is True  # entered: its ground is known
    assert not can_see(t.ext, t.ent("Gob"), t.ent("Brick"))


# --- TP-I-2 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-I-2")
def test_TP_I_2_attacking_an_unseen_target_is_debilitated_and_being_attacked_unseen_is_vulnerable():
    """TP-I-2: Aria in the lit hall shoots Gob in the shadowy alcove, which she cannot see: Debilitated
    (Hit d8 -> d6). Gob sees Aria in the light, so the prompt names her."""
    t = scene()
    t.place("Gob", ALCOVE)
    t.to_action("Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="bow", target="Gob")
    prompt = t.state.prompts[0]
    assert prompt.text.startswith("Aria uses Bow")  # Gob sees Aria: the prompt names her
    (resolved, *_) = t.do("gm", "triptycho.react", [6, 1, 4], prompt=prompt.id, choice="dodge")
    d = resolved.data
    assert (d["dice"]["hit"], d["dice"]["damage"]) == ("1d6", "1d4")  # d8 and d6 lowered one level
    assert any("cannot see the target (TP-I-2)" in n for n in d["notes"])
    assert d["hit"] is True


@pytest.mark.rule("TP-I-2")
def test_TP_I_2_a_target_that_cannot_see_its_attacker_is_vulnerable_for_the_attack():
    """TP-I-2: Gob in the dark crypt (with darkvision) strikes Brick there: Brick cannot see Gob."""
    t = scene()
    t.do("gm", "triptycho.setup", participant="Gob", darkvision=True, cards=[SLASH, DODGE])
    t.place("Gob", CRYPT)
    t.place("Brick", CRYPT)
    t.do("gm", "triptycho.setup", participant="Brick", cards=[SLASH, DODGE], deck=["dodge"], uses_deck=True)
    t.do("gm", "triptycho.deal", participants=["Brick"])
    t.to_action("Gob")
    t.do("gm", "triptycho.act", participant="Gob", card="slash", target="Brick")
    prompt = t.state.prompts[0]
    assert prompt.to == t.pid("Brick")
    assert prompt.text.startswith("An unseen attacker")  # Brick's player never learns who
    events = t.do("ben", "triptycho.react", [8, 3, 4], prompt=prompt.id, choice=t.ent("Brick").hand[0])
    resolved = events[0]
    # Brick is Hindered (cannot see in the dark, TP-I-3) and Vulnerable (unseen attacker): d8 -> d4.
    assert resolved.data["dice"]["miss"] == "1d4"
    assert any("cannot see the attacker (TP-I-2)" in n for n in resolved.data["notes"])
    # Ben's log has the strike without Gob's name; the full event is not his to read.
    ben = [e for e in t.visible_events("ben") if e.seq >= resolved.seq]
    assert "triptycho.attack_resolved" not in [e.type for e in ben]
    assert any(e.type == "triptycho.unseen" for e in ben)
    assert "Gob" not in json.dumps([e.data for e in ben])


# --- TP-I-3 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-I-3")
def test_TP_I_3_an_entity_that_cannot_see_in_its_own_section_is_hindered():
    """TP-I-3: in the dark Brick is Hindered; with Darkvision, or in the light, he is not."""
    t = scene()
    t.place("Brick", CRYPT)
    (brick,) = [e for e in t.view("ben")["system"]["entities"] if e["name"] == "Brick"]
    assert brick["conditions"] == ["hindered"]
    t.do("gm", "triptycho.setup", participant="Brick", darkvision=True, cards=[SLASH], uses_deck=False)
    (brick,) = [e for e in t.view("ben")["system"]["entities"] if e["name"] == "Brick"]
    assert brick["conditions"] == []
    t.place("Aria", ALCOVE)  # shadowy: occupants still see each other
    (aria,) = [e for e in t.view("ann")["system"]["entities"] if e["name"] == "Aria"]
    assert aria["conditions"] == []


# --- TP-I-4 ---------------------------------------------------------------------------------------


class Senses:
    def __init__(self, low_light=False, darkvision=False, light_sensitive=False):
        self.low_light, self.darkvision, self.light_sensitive = low_light, darkvision, light_sensitive


@pytest.mark.rule("TP-I-4")
@pytest.mark.parametrize(
    ("senses", "lit", "shadowy", "dark"),
    [
        ({}, "lit", "shadowy", "dark"),
        ({"low_light": True}, "lit", "lit", "dark"),
        ({"darkvision": True}, "lit", "lit", "lit"),
        ({"light_sensitive": True}, "shadowy", "shadowy", "dark"),
        ({"low_light": True, "light_sensitive": True}, "shadowy", "lit", "dark"),
        ({"darkvision": True, "light_sensitive": True}, "shadowy", "lit", "lit"),
    ],
)
def test_TP_I_4_senses_change_the_light_an_entity_perceives(senses, lit, shadowy, dark):
    """TP-I-4: Low-light Vision, Darkvision and Light Sensitivity (and Low-light + Sensitivity swap)."""
    s = Senses(**senses)
    assert (sight.perceived("lit", s), sight.perceived("shadowy", s), sight.perceived("dark", s)) == (
        lit,
        shadowy,
        dark,
    )


@pytest.mark.rule("TP-I-4")
def test_TP_I_4_low_light_vision_sees_into_shadow_and_light_sensitivity_loses_the_lit_yard():
    """TP-I-4: on the map: Aria with Low-light Vision sees Gob in the shadowy alcove from the hall."""
    t = scene(low_light=True)
    t.place("Gob", ALCOVE)
    assert "Gob" in t.seen("ann") and "Gob" not in t.seen("ben")
    t.place("Gob", CRYPT)
    assert "Gob" not in t.seen("ann")
    t.do("gm", "triptycho.setup", participant="Aria", darkvision=True, cards=[BOW], uses_deck=False)
    assert "Gob" in t.seen("ann")
    t.do("gm", "triptycho.setup", participant="Aria", light_sensitive=True, cards=[BOW], uses_deck=False)
    t.place("Gob", YARD)
    assert "Gob" not in t.seen("ann") and "Gob" in t.seen("ben")


# --- TP-I-5 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-I-5")
def test_TP_I_5_an_entity_in_several_sections_uses_the_light_where_the_attack_happens():
    """TP-I-5: a huge Gob in the shadowy alcove and the dark crypt: seen in neither from the hall, so a
    strike at it is Debilitated; once it also fills the lit yard, a strike there is not."""
    t = scene()
    t.place("Gob", ALCOVE, CRYPT)
    assert "Gob" not in t.seen("ann")
    t.place("Gob", ALCOVE, YARD)
    assert "Gob" in t.seen("ann")
    t.to_action("Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="bow", target="Gob", section=YARD)
    (resolved, *_) = t.do("gm", "triptycho.react", [2], prompt=t.state.prompts[0].id, choice="none")
    assert resolved.data["dice"]["hit"] == "1d8" and resolved.data["notes"] == []


@pytest.mark.rule("TP-I-5")
def test_TP_I_5_striking_the_shadowy_part_of_a_large_entity_is_debilitated():
    """TP-I-5: the same Gob struck in the shadowy alcove, where Aria cannot see it."""
    t = scene()
    t.place("Gob", ALCOVE, YARD)
    t.to_action("Aria")
    t.do("ann", "triptycho.act", participant="Aria", card="bow", target="Gob", section=ALCOVE)
    (resolved, *_) = t.do("gm", "triptycho.react", [2], prompt=t.state.prompts[0].id, choice="none")
    assert resolved.data["dice"]["hit"] == "1d6"


# --- TP-I-6 ---------------------------------------------------------------------------------------


@pytest.mark.rule("TP-I-6")
def test_TP_I_6_an_adversary_in_the_dark_is_not_in_a_players_view_at_all():
    """TP-I-6: Gob in the crypt: absent from the players' and spectators' maps, options and turn;
    present on the GM's."""
    t = scene()
    t.place("Gob", CRYPT)
    gob = t.pid("Gob")
    for who in ("ann", "ben", "spec"):
        system = t.view(who)["system"]
        assert gob not in json.dumps(system) and gob not in json.dumps(t.view(who)["options"])
    assert "Gob" in t.seen("gm")
    t.turn_of("Gob")
    assert t.view("ann")["system"]["turn"]["entity"] is None  # whose turn it is stays hidden
    assert t.view("gm")["system"]["turn"]["entity"] == gob


@pytest.mark.rule("TP-I-6")
def test_TP_I_6_the_core_participant_list_and_turn_order_conceal_an_unseen_adversary():
    """TP-I-6: `conceals` hides Gob in the crypt from the players' whole view (the core's characters,
    encounters and initiative included) and from the log of whose turn it is; lit, it is back."""
    t = scene()
    t.place("Gob", CRYPT)
    gob = t.pid("Gob")
    t.do(
        "gm",
        "triptycho.order",
        entries=[{"participant": "Gob", "value": 9}, {"participant": "Aria", "value": 1}],
    )
    order_set = t.events[-1]
    assert order_set.type == "generic.initiative_set" and order_set.audience == "gm"
    advanced, noted = t.do("gm", "triptycho.next_turn")
    assert advanced.audience == "all" and advanced.data["name"] is None  # "the GM's turn"
    assert noted.type == "generic.turn_noted" and noted.audience == "gm"
    for who in ("ann", "ben", "spec"):
        text = t.dump(who)
        assert gob not in text and "Gob" not in text, who
        assert t.view(who)["initiative"]["current"] is None
    assert "Gob" in t.dump("gm")
    t.do("gm", "triptycho.section.set", section=CRYPT, light="lit")
    assert "Gob" in [p["name"] for p in t.view("ann")["participants"]]
    assert "Gob" in [e["name"] for e in t.view("ann")["initiative"]["entries"]]


@pytest.mark.rule("TP-I-6")
def test_TP_I_6_moves_in_the_dark_reach_only_the_gm_and_those_who_see_them():
    """TP-I-6: Gob creeping through the dark is a GM-only event; stepping into the light, everyone's."""
    t = scene()
    t.place("Gob", CRYPT)
    t.start("Gob")
    (moved,) = t.do("gm", "triptycho.move", participant="Gob", to=ALCOVE)
    assert moved.audience == "gm"
    t.do("gm", "triptycho.grant_move", participant="Gob", n=1)
    (moved,) = t.do("gm", "triptycho.move", participant="Gob", to=HALL, move=t.ext.turn.moves[0].id)
    assert moved.audience == "all"


@pytest.mark.rule("TP-I-6")
def test_TP_I_6_the_gm_previews_a_players_view_and_spectators_see_what_the_party_sees():
    """TP-I-6: the GM's preview of Ann is exactly Ann's view; the spectator sees the party's union."""
    t = scene()
    t.place("Gob", ALCOVE)
    t.place("Brick", ALCOVE)
    assert player_view(t.state, "seat-ann") == t.view("ann")["system"]
    assert t.seen("spec") == {"Aria", "Brick", "Gob"}  # Brick sees Gob
    assert t.seen("ann") == {"Aria"}  # even an ally in the shadows is out of Aria's sight


@pytest.mark.rule("TP-I-6")
def test_TP_I_6_a_players_hand_and_the_deck_order_are_theirs_and_the_gms_only():
    """TP-I-6: Aria's hand is in Ann's view and the GM's; nobody else sees it; the deck order is the GM's."""
    t = scene()
    t.do(
        "gm", "triptycho.setup", participant="Aria", cards=[BOW, SLASH], deck=["bow", "slash"], uses_deck=True
    )
    (shuffled, drawn, _dealt) = t.do("gm", "triptycho.deal", [2])
    assert shuffled.audience == "gm" and drawn.audience == f"p:{t.pid('Aria')}"
    ann = {e["name"]: e for e in t.view("ann")["system"]["entities"]}
    ben = {e["name"]: e for e in t.view("ben")["system"]["entities"]}
    assert {h["card"] for h in ann["Aria"]["hand"]} == {"Bow", "Slash"}
    assert "hand" not in ben["Aria"] and ben["Aria"]["hand_count"] == 2
    assert "deck" not in ann["Aria"]
    assert "deck" in {e["name"]: e for e in t.view("gm")["system"]["entities"]}["Aria"]
    assert [e.type for e in t.visible_events("ben")].count("triptycho.cards_drawn") == 0


@st.composite
def lit_scenes(draw):
    lights = draw(st.lists(st.sampled_from(["lit", "shadowy", "dark"]), min_size=9, max_size=9))
    walls = draw(st.lists(st.booleans(), min_size=12, max_size=12))
    spots = draw(st.lists(st.integers(0, 8), min_size=4, max_size=4))
    senses = draw(st.lists(st.booleans(), min_size=6, max_size=6))
    return lights, walls, spots, senses


@pytest.mark.rule("TP-I-6")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lit_scenes())
def test_TP_I_6_a_players_view_never_contains_an_entity_their_characters_cannot_see(scenario):
    """TP-I-6 (Hypothesis): random light, walls, senses and places on a 3x3 map: nothing of an
    entity no character of the player sees appears in the player's map, options or prompts."""
    lights, walls, spots, senses = scenario
    ids = [f"c{c}r{r}" for r in range(3) for c in range(3)]
    pairs = [(f"c{c}r{r}", f"c{c + 1}r{r}") for r in range(3) for c in range(2)]
    pairs += [(f"c{c}r{r}", f"c{c}r{r + 1}") for r in range(2) for c in range(3)]
    m = BattleMap.model_validate(
        {
            **grid_map("h", "H", 3, 3).export(),
            "sections": [
                {**s, "light": lights[i]} for i, s in enumerate(grid_map("h", "H", 3, 3).export()["sections"])
            ],
            "borders": [
                {"a": a, "b": b, "kind": "hard"} for (a, b), w in zip(pairs, walls, strict=True) if w
            ],
        }
    )
    t = Table()
    t.add("Aria", "ann", low_light=senses[0], darkvision=senses[1], light_sensitive=senses[2])
    t.add("Brick", "ben", low_light=senses[3], darkvision=senses[4], light_sensitive=senses[5])
    t.add("Zorgrim", None, kind="npc", cards=[SLASH])
    t.add("Vexilla", None, kind="npc", cards=[SLASH])
    t.board(m)
    for name, spot in zip(("Aria", "Brick", "Zorgrim", "Vexilla"), spots, strict=True):
        t.place(name, ids[spot])
    for who, mine in (("ann", "Aria"), ("ben", "Brick")):
        me = t.ent(mine)
        text = json.dumps([t.view(who)["system"], t.view(who)["options"], t.view(who)["prompts"]])
        for foe in ("Zorgrim", "Vexilla"):
            seen = can_see(t.ext, me, t.ent(foe))
            assert (foe in text) == seen, (who, foe, seen)
            assert (t.pid(foe) in text) == seen


NOVA = {
    "id": "nova",
    "name": "Nova",
    "area": "enemies",
    "range": 3,
    "hit": "1d6",
    "damage": "1d4",
    "hostile": True,
}


@pytest.mark.rule("TP-I-6")
def test_TP_I_6_an_area_attack_into_the_dark_never_names_who_was_there():
    """TP-I-6: Aria's Nova into the dark crypt hits Gob, whom nobody sees: neither Ann's nor Ben's log,
    view or prompts ever carry Gob's name or id; the GM's log has the whole attack."""
    t = scene()
    t.do("gm", "triptycho.setup", participant="Aria", uses_deck=False, cards=[NOVA])
    t.do("gm", "triptycho.setup", participant="Gob", cards=[SLASH])  # no Reaction: resolved at once
    t.place("Gob", CRYPT)
    t.to_action("Aria")
    first = len(t.events)
    events = t.do("ann", "triptycho.act", [2], participant="Aria", card="nova", section=CRYPT)
    assert "triptycho.attack_resolved" in [e.type for e in events]
    assert t.ent("Gob").damage == 2  # Damage 1d4 lowered to 1d2: Aria cannot see into the dark (TP-I-2)
    gob = t.pid("Gob")
    for who in ("ann", "ben", "spec"):
        mine = [e for e in t.visible_events(who) if e.seq > first]
        text = json.dumps([e.data for e in mine])
        assert gob not in text and "Gob" not in text, who
        assert gob not in json.dumps(t.view(who)["system"])
    ann_texts = [t.game.describe(e) for e in t.visible_events("ann") if e.seq > first]
    assert "Aria's Nova strikes at something you cannot see." in ann_texts
    assert {e.type for e in t.visible_events("gm") if e.seq > first} >= {
        "triptycho.attack_declared",
        "triptycho.attack_resolved",
        "triptycho.damaged",
    }


@pytest.mark.rule("TP-I-6")
def test_TP_I_6_a_shot_at_a_named_unseen_foe_tells_only_the_shooter():
    """TP-I-6 with TP-I-2: Aria names Gob (in the shadows) as her target; Ben, who sees her but not Gob,
    reads only that she shoots."""
    t = scene()
    t.place("Gob", ALCOVE)
    t.place("Brick", HALL)
    t.to_action("Aria")
    first = len(t.events)
    t.do("ann", "triptycho.act", participant="Aria", card="bow", target="Gob")
    t.do("gm", "triptycho.react", [6, 1, 4], prompt=t.state.prompts[0].id, choice="dodge")
    ben = [e for e in t.visible_events("ben") if e.seq > first]
    assert "Gob" not in json.dumps([e.data for e in ben]) and t.pid("Gob") not in json.dumps(
        [e.data for e in ben]
    )
    assert "Aria plays Bow." in [t.game.describe(e) for e in ben]
    ann = [e for e in t.visible_events("ann") if e.seq > first]
    assert any(e.type == "triptycho.attack_resolved" for e in ann)


@st.composite
def walled_maps(draw):
    """Small grids with random walls and heights."""
    cols, rows = draw(st.integers(2, 5)), draw(st.integers(1, 4))
    borders = []
    for r in range(rows):
        for c in range(cols):
            for dc, dr in ((1, 0), (0, 1)):
                if c + dc < cols and r + dr < rows:
                    kind = draw(st.sampled_from(["soft", "soft", "soft", "hard"]))
                    height = draw(st.sampled_from([0, 0, 0, 1, -1, 2]))
                    if kind == "hard" or height:
                        borders.append(
                            Border(a=f"c{c}r{r}", b=f"c{c + dc}r{r + dr}", kind=kind, height=height)
                        )
    return grid_map("w", "W", cols, rows, borders=tuple(borders))


@pytest.mark.rule("TP-I-1")
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(walled_maps())
def test_TP_I_1_the_one_sweep_line_of_sight_agrees_with_a_search_per_pair_and_is_symmetric(m):
    """TP-I-1 (ruling): sight from a section is one sweep; it must equal the search for each pair of a
    straight unblocked route at most SIGHT_SLACK borders longer than the shortest walk."""
    from app.rules.triptycho.board import index
    from app.rules.triptycho.paths import SIGHT_SLACK, Route, _walk, line_of_sight

    idx = index(m)
    ids = [s.id for s in m.sections]
    for a in ids:
        for b in ids:
            d = idx.distance(a, b)
            if a == b:
                expected = True
            elif d is None:
                expected = False
            else:
                expected = any(not Route(p, r).blocked for p, r in _walk(idx, a, d + SIGHT_SLACK, b))
            assert line_of_sight(idx, a, b) == expected == line_of_sight(idx, b, a), (a, b)
