"""A client generated from /openapi.json plays a short fight against a real server (issue 13, item 1).

openapi-python-client (a dev dependency) writes the client into a temporary directory; the test imports
it and uses only its typed models and operations: create a campaign, take a player seat, add the
characters, start the encounter, roll (the GM and the player), then read the view and the events. A
schema that declared a field the server does not send, or typed it wrongly, fails here: the generated
models parse every reply strictly.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = "fray_generated"
CONFIG = f"""\
package_name_override: {PACKAGE}
post_hooks: []
content_type_overrides:
  image/webp: application/octet-stream
  image/jpeg: application/octet-stream
  application/gzip: application/octet-stream
"""


@pytest.fixture
def generated(live_http, tmp_path: Path):
    """The client package, generated from the running server's document and imported."""
    document = tmp_path / "openapi.json"
    document.write_text(live_http.get("/openapi.json").text)
    config = tmp_path / "config.yaml"
    config.write_text(CONFIG)
    tool = Path(sys.executable).with_name("openapi-python-client")
    done = subprocess.run(
        [
            str(tool),
            "generate",
            "--path",
            str(document),
            "--config",
            str(config),
            "--meta",
            "none",
            "--output-path",
            str(tmp_path / "client" / PACKAGE),
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(tmp_path / "client"))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path / "client"))
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def test_a_generated_client_plays_a_short_fight(generated, live_server):
    from fray_generated import AuthenticatedClient, Client  # type: ignore[import-not-found]
    from fray_generated import models as m  # type: ignore[import-not-found]
    from fray_generated.api.api import (  # type: ignore[import-not-found]
        campaign_view,
        command,
        create_campaign,
        events,
        join,
        systems,
    )

    def public():  # no seat
        return Client(base_url=live_server.url, raise_on_unexpected_status=True)

    keys = [system.key for system in systems.sync(client=public())]
    assert keys[0] == "generic" and "tote" in keys

    made = create_campaign.sync(
        client=public(),
        body=m.CreateCampaign(name="Generated", system=m.CreateCampaignSystem.GENERIC, gm_name="Dana"),
    )
    assert isinstance(made, m.CampaignCreated), made
    gm = AuthenticatedClient(base_url=live_server.url, token=made.gm_token, raise_on_unexpected_status=True)
    invite = made.invite_url.rsplit("/", 1)[1]
    seat = join.sync(made.id, client=public(), body=m.Join(invite=invite, name="Ann"))
    assert isinstance(seat, m.Joined) and seat.role == m.JoinedRole.PLAYER
    ann = AuthenticatedClient(base_url=live_server.url, token=seat.token, raise_on_unexpected_status=True)

    def run(client, body):
        reply = command.sync(made.id, client=client, body=body)
        assert isinstance(reply, m.CommandReply), reply
        return reply

    add, adding = (
        m.CampaignAddParticipantCommand,
        m.CampaignAddParticipantCommandType.CAMPAIGN_ADD_PARTICIPANT,
    )
    added = run(gm, add(type_=adding, name="Rook", owner=seat.seat_id))
    rook = next(p["id"] for p in (item.to_dict() for item in added.view.participants) if p["name"] == "Rook")
    run(gm, add(type_=adding, name="Goblin", kind=m.CampaignAddParticipantCommandKind.NPC))
    prepare = m.CampaignEncounterPrepareCommand
    run(
        gm,
        prepare(
            type_=m.CampaignEncounterPrepareCommandType.CAMPAIGN_ENCOUNTER_PREPARE,
            name="Ambush",
            participants=[rook],
        ),
    )
    start = m.CampaignEncounterStartCommand
    started = run(
        gm, start(type_=m.CampaignEncounterStartCommandType.CAMPAIGN_ENCOUNTER_START, encounter="Ambush")
    )
    assert started.view.encounter is not None and started.view.encounter.to_dict()["name"] == "Ambush"

    roll = m.GenericRollCommand
    swing = run(
        ann,
        roll(
            type_=m.GenericRollCommandType.GENERIC_ROLL,
            expression="1d20+3",
            participant=rook,
            target=12,
            label="Sword",
        ),
    )
    [rolled] = [event for event in swing.events if event.type_ == "generic.rolled"]
    assert 4 <= rolled.data.to_dict()["total"] <= 23 and rolled.data.to_dict()["label"] == "Sword"
    secret = run(
        gm,
        roll(type_=m.GenericRollCommandType.GENERIC_ROLL, expression="2d6", label="Ambushers", hidden=True),
    )
    assert secret.seq > swing.seq

    # Someone else's character is refused with a typed error: one sentence, and no action.
    refused = command.sync_detailed(
        made.id,
        client=AuthenticatedClient(base_url=live_server.url, token=seat.token),
        body=roll(type_=m.GenericRollCommandType.GENERIC_ROLL, expression="1d6", participant="nobody"),
    )
    assert refused.status_code in (403, 409)
    assert isinstance(refused.parsed, m.ErrorReply) and refused.parsed.detail.endswith(".")

    view = campaign_view.sync(made.id, client=ann)
    assert isinstance(view, m.View)
    assert view.me.role == m.MeRole.PLAYER and view.me.participants == [rook]
    assert view.campaign.system == "generic" and view.campaign.seq == secret.seq
    assert not isinstance(view.rulings, list)  # the GM's only: left out of a player's view

    page = events.sync(made.id, client=ann, after=0)
    assert isinstance(page, m.EventsPage) and page.seq == secret.seq
    labels = [event.data.to_dict().get("label") for event in page.events if event.type_ == "generic.rolled"]
    assert labels == ["Sword"]  # the GM's hidden roll is not the player's to see
    everything = events.sync(made.id, client=gm, after=0)
    assert [e.data.to_dict().get("label") for e in everything.events if e.type_ == "generic.rolled"] == [
        "Sword",
        "Ambushers",
    ]
