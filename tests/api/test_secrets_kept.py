"""Issue 16's leaks and half-applied writes, through the public API (on SQLite and PostgreSQL)."""

from __future__ import annotations

import json

import pytest

from tests.helpers import Table


def _seq(table: Table) -> int:
    return table.view(table.gm)["campaign"]["seq"]


def test_changing_a_running_encounters_notes_tells_the_players_nothing(table: Table):
    ann = table.join("Ann")
    crawler = table.character("Cave Crawler", kind="npc", hidden=True)
    table.character("Rook", owner=ann)
    table.ok(table.gm, "campaign.encounter.prepare", name="Caves", participants=["Rook", crawler])
    table.ok(table.gm, "campaign.encounter.start", encounter="Caves")
    start = _seq(table)
    table.ok(table.gm, "campaign.encounter.update", encounter="Caves", notes="SECRET-NOTE: the crawler waits")
    seen = json.dumps(table.events(ann, after=start)) + json.dumps(table.view(ann))
    assert "SECRET-NOTE" not in seen and crawler not in seen
    assert "SECRET-NOTE" in json.dumps(table.events(table.gm, after=start))


def test_a_refusal_never_names_a_character_the_asker_cannot_see(table: Table):
    ann = table.join("Ann")
    table.character("Rook", owner=ann)
    crawler = table.character("Cave Crawler", kind="npc", hidden=True)
    r = table.send(ann, "generic.roll", expression="1d6", participant=crawler)
    assert r.status_code == 409
    assert "Cave Crawler" not in r.text and r.json()["detail"] == f"There is no character '{crawler}'."
    # The same answer as for a character that does not exist at all.
    missing = table.send(ann, "generic.roll", expression="1d6", participant="p999")
    assert missing.json()["detail"] == "There is no character 'p999'."


@pytest.mark.parametrize(
    "body",
    [
        '{"type": "campaign.encounter.prepare", "name": "X", "setup": {"note": "\\ud800"}}',
        '{"type": "campaign.encounter.prepare", "name": "X", "setup": '
        + '{"a": ' * 300
        + "1"
        + "}" * 300
        + "}",
    ],
    ids=["lone-surrogate", "nested-300"],
)
def test_input_that_could_not_be_read_back_is_refused_before_anything_is_written(table: Table, body: str):
    start = _seq(table)
    r = table.http.post(
        f"/api/campaigns/{table.id}/commands",
        content=body,
        headers={**table.gm.auth, "content-type": "application/json"},
    )
    assert r.status_code == 422, r.text
    assert _seq(table) == start
    assert table.http.get(f"/api/campaigns/{table.id}/events", headers=table.gm.auth).status_code == 200


@pytest.mark.parametrize(
    "command_id", [{}, [], 0, "", "   "], ids=["object", "list", "zero", "empty", "blank"]
)
def test_a_command_id_that_is_not_text_is_refused_not_ignored(table: Table, command_id):
    start = _seq(table)
    r = table.http.post(
        f"/api/campaigns/{table.id}/commands",
        json={"type": "generic.roll", "expression": "1d6", "dice": [3], "command_id": command_id},
        headers=table.gm.auth,
    )
    assert r.status_code == 422 and "command_id" in r.json()["detail"]
    assert _seq(table) == start
