"""The whole flow through the JSON API with bearer tokens: a GM, two players, a fight."""

from __future__ import annotations

from tests.helpers import Table, pool, track


def test_a_whole_session_through_the_api(table: Table):
    ann, ben = table.join("Ann"), table.join("Ben")
    aria = table.character("Aria", owner=ann)
    table.character("Brick", owner=ben)
    table.ok(table.gm, "generic.pool.create", name="Good Karma", value=1, min=0)
    table.ok(table.gm, "generic.track.create", name="Harm", total=7, owner="Aria")

    # A player rolls for their character with physical dice typed in.
    reply = table.ok(ann, "generic.roll", expression="2d6+1", participant=aria, label="Attack", dice=[4, 5])
    rolled = reply["events"][-1]
    assert rolled["type"] == "generic.rolled"
    assert rolled["data"]["roll"]["terms"][0]["faces"] == [4, 5]
    assert rolled["data"]["total"] == 10
    assert reply["seq"] == rolled["seq"]

    # Players spend the shared pool and mark their own tracks; everyone sees it.
    table.ok(ben, "generic.pool.adjust", pool="Good Karma", delta=-1)
    table.ok(ann, "generic.track.adjust", track=track(table.view(ann), "Harm", aria)["id"], delta=2)
    for seat in (table.gm, ann, ben):
        view = table.view(seat)
        assert pool(view, "Good Karma")["value"] == 0
        assert track(view, "Harm", aria)["filled"] == 2

    # Initiative, turns, and an encounter kept in the log.
    table.ok(table.gm, "campaign.encounter.prepare", name="Ford", participants=["Aria", "Brick"])
    table.ok(table.gm, "campaign.encounter.start", encounter="Ford")
    table.ok(
        table.gm,
        "generic.initiative.set",
        entries=[{"participant": "Brick", "value": 9}, {"participant": "Aria", "value": 14}],
    )
    view = table.ok(table.gm, "generic.initiative.next")["view"]
    assert view["initiative"]["current_name"] == "Aria"
    assert table.view(ann)["initiative"]["my_turn"] is True
    assert table.ok(ann, "generic.initiative.next")["view"]["initiative"]["current_name"] == "Brick"
    ended = table.ok(table.gm, "campaign.encounter.end")
    assert ended["view"]["encounter"] is None
    assert [e["status"] for e in ended["view"]["encounters"]] == ["ended"]

    # The GM undoes the last action; players see the undo in the events.
    undone = table.ok(table.gm, "campaign.undo")
    assert undone["view"]["encounter"]["name"] == "Ford"
    assert any(e["type"] == "campaign.undone" for e in table.events(ann))


def test_the_next_encounter_starts_with_characters_as_the_last_left_them(table: Table):
    ann = table.join("Ann")
    aria = table.character("Aria", owner=ann)
    table.ok(table.gm, "generic.track.create", name="Harm", total=7, owner=aria)
    for name in ("First", "Second"):
        table.ok(table.gm, "campaign.encounter.prepare", name=name)
    table.ok(table.gm, "campaign.encounter.start", encounter="First")
    harm = track(table.view(ann), "Harm", aria)["id"]
    table.ok(table.gm, "generic.track.adjust", track=harm, delta=3)
    table.ok(table.gm, "campaign.encounter.end")
    table.ok(table.gm, "campaign.encounter.start", encounter="Second")
    assert track(table.view(ann), "Harm", aria)["filled"] == 3
    # Events name their encounter, and the first fight can be replayed step by step.
    first = next(e["id"] for e in table.view(table.gm)["encounters"] if e["name"] == "First")
    replay = table.http.get(f"/api/campaigns/{table.id}/encounters/{first}/replay", headers=ann.auth).json()
    assert [e["type"] for e in replay["events"]] == [
        "campaign.encounter_started",
        "generic.track_changed",
        "campaign.encounter_ended",
    ]
    at_start = table.http.get(
        f"/api/campaigns/{table.id}/encounters/{first}/replay",
        params={"seq": replay["steps"][0]},
        headers=ann.auth,
    ).json()
    assert track(at_start["view"], "Harm", aria)["filled"] == 0
    assert track(replay["view"], "Harm", aria)["filled"] == 3


def test_replay_hides_what_was_not_played(table: Table):
    ann = table.join("Ann")
    table.ok(table.gm, "campaign.encounter.prepare", name="Dragon lair")
    prepared = table.view(table.gm)["encounters"][0]["id"]
    for ref in (prepared, "Dragon lair", "nope"):
        r = table.http.get(f"/api/campaigns/{table.id}/encounters/{ref}/replay", headers=ann.auth)
        assert r.status_code == 404 and "Dragon" not in r.text
    r = table.http.get(f"/api/campaigns/{table.id}/encounters/{prepared}/replay", headers=table.gm.auth)
    assert r.status_code == 409 and "not been played" in r.json()["detail"]


def test_systems_lists_commands_with_schemas(client):
    systems = client.get("/api/systems").json()
    generic = next(s for s in systems if s["key"] == "generic")
    types = {c["type"] for c in generic["commands"]}
    assert {"generic.roll", "generic.pool.create", "generic.pool.adjust", "campaign.undo"} <= types
    roll = next(c for c in generic["commands"] if c["type"] == "generic.roll")
    assert "expression" in roll["schema"]["properties"]
    health = client.get("/healthz").json()
    assert (
        health["status"] == "ok"
        and isinstance(health["loop_stall_ms"], float)
        and health["loop_stall_ms"] >= 0
    )
    assert client.get("/openapi.json").status_code == 200
