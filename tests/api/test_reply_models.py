"""The reply models type the JSON API's bodies without changing them (issue 32): a reply carries every
key of what the services built, in the same order, and nothing more (no null for a field left out)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pydantic
import pytest

from app.rules import registry
from app.services import reads
from app.services.auth import seat_for
from tests.helpers import demo_table, replies_as_declared


def _same(reply: Any, built: Any) -> None:
    # Compared as text: a dict's order is part of the bytes a client gets.
    assert json.dumps(reply) == json.dumps(built)


@pytest.mark.parametrize("system", list(registry.systems()))
def test_views_replays_and_command_replies_are_what_the_services_built(client, system: str):
    table, players = demo_table(client, system)
    fray = client.app.state.fray
    spectator = client.post(
        f"/api/campaigns/{table.id}/watch", json={"code": table.spectator, "name": "Table"}
    ).json()["token"]
    tokens = [table.gm.token, *(p.token for p in players.values()), spectator]
    for token in tokens:
        headers = {"Authorization": f"Bearer {token}"}
        seat = seat_for(fray, table.id, token)
        assert seat is not None
        view = client.get(f"/api/campaigns/{table.id}", headers=headers).json()
        _same(view, reads.view_for(fray, seat))
        for encounter in view["encounters"]:
            if encounter["status"] != "prepared":
                url = f"/api/campaigns/{table.id}/encounters/{encounter['id']}/replay"
                _same(
                    client.get(url, headers=headers).json(),
                    reads.replay_for(fray, seat, encounter["id"], None),
                )
        if seat.role != "spectator":
            reply = client.post(
                f"/api/campaigns/{table.id}/commands",
                json={"type": "generic.roll", "expression": "1d6"},
                headers=headers,
            )
            assert reply.status_code == 200, reply.text
            _same(reply.json()["view"], reads.view_for(fray, seat))


def test_a_command_reply_unlike_its_model_fails_the_tests_that_get_it():
    # The commands route writes its reply unchecked; the tests' clients check each one (tests/helpers.py).
    request = httpx.Request("POST", "http://testserver/api/campaigns/c1/commands")
    good = {"seq": 3, "events": [], "view": None}
    with pytest.raises(pydantic.ValidationError):  # a reply without a view: the model requires one
        replies_as_declared(httpx.Response(200, json=good, request=request))
    unsent = httpx.Response(422, json={"detail": "No."}, request=request)
    replies_as_declared(unsent)  # a refusal is an ErrorReply, not a reply
