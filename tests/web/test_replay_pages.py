"""Replay pages draw each system's board from the view folded up to the step, made for the seat that
looks: a player's replay never holds what that player's page did not (5x5 NPCs out of sight)."""

from __future__ import annotations

from tests.helpers import Table, demo_table


def pages(client, table: Table, token: str, encounter: str) -> list[str]:
    client.cookies.clear()
    client.cookies.set(f"fray_{table.id}", token)
    steps = client.get(
        f"/api/campaigns/{table.id}/encounters/{encounter}/replay",
        headers={"Authorization": f"Bearer {token}"},
    )
    out = []
    for seq in steps.json()["steps"]:
        r = client.get(f"/c/{table.id}/encounters/{encounter}", params={"seq": seq})
        assert r.status_code == 200, r.text
        out.append(r.text)
    client.cookies.clear()  # API calls after this one go as bearer seats, not as a browser
    return out


def test_a_players_5x5_replay_draws_the_tabletop_without_the_npc_out_of_sight(client):
    table, seats = demo_table(client, "fivebyfive")
    table.ok(table.gm, "fivebyfive.place", participant="Aria", x=8, y=12)
    gm = table.view(table.gm)
    sneak = next(p["id"] for p in gm["participants"] if p["name"] == "Mindbender")
    ann_view = table.view(seats["Ann"])
    assert "Mindbender" not in str(ann_view)  # the live phone does not see it: nor may the replay
    ann = pages(client, table, seats["Ann"].token, "Rooftop")
    assert len(ann) >= 2
    assert all('id="replay-board"' in page for page in ann)
    assert 'data-name="Aria" data-x="8.0"' in ann[-1] and 'data-name="Thug"' in ann[-1]
    for page in ann:
        assert "Mindbender" not in page and sneak not in page
        assert "data-drag" not in page and "data-ping " not in page and "fx-move-form" not in page
    # The GM's replay of the same steps shows it.
    assert "Mindbender" in pages(client, table, table.gm.token, "Rooftop")[-1]


def test_trinity_and_tote_replays_draw_their_range_bands(client):
    table, _ = demo_table(client, "trinity")
    table.ok(table.gm, "trinity.set_band", character="Aria", opponent="Cultist", band="long")
    last = pages(client, table, table.gm.token, "The chapel doors")[-1]
    assert 'class="tc-lane' in last and "tc-cell long here" in last
    assert "trinity.set_band" not in last  # the board only looks
    table, _ = demo_table(client, "tote")
    last = pages(client, table, table.gm.token, "Wolves at the ford")[-1]
    assert 'class="tt-field' in last and "Aiyana at Close" in last


def test_a_replay_draws_the_scene_as_each_seat_saw_it_then(client):
    table = Table.create(client, system="generic", dice="server")
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    lich = table.character("Lich")
    table.ok(table.gm, "campaign.encounter.prepare", name="Crypt fight", participants=[rook, lich])
    table.ok(table.gm, "campaign.encounter.start", encounter="Crypt fight")
    scene = table.ok(table.gm, "map.scene.create", name="The crypt", grid={"type": "square", "size": 50})
    scene = scene["view"]["map"]["scene"]
    table.ok(table.gm, "map.token.place", scene=scene, x=60, y=60, participant=rook)
    table.ok(table.gm, "map.token.place", scene=scene, x=260, y=60, participant=lich, hidden=True)
    table.ok(table.gm, "map.scene.show", scene=scene)
    token = table.view(ann)["map"]["tokens"][0]["id"]
    table.ok(table.gm, "map.token.move", token=token, x=160, y=110)

    gm = pages(client, table, table.gm.token, "Crypt fight")
    assert 'data-kind="scene"' in gm[-1] and 'data-name="Lich"' in gm[-1] and 'data-name="Rook"' in gm[-1]
    assert 'data-x="75.0"' in gm[-2] and 'data-x="175.0"' in gm[-1]  # Rook moved between the two steps
    ann_pages = pages(client, table, ann.token, "Crypt fight")
    for page in ann_pages:
        assert 'data-name="Lich"' not in page  # a hidden token: the GM's alone
        assert " movable" not in page and "data-ping " not in page
    shown = [page for page in ann_pages if 'data-kind="scene"' in page]
    assert shown and 'data-name="Rook"' in shown[-1]
    # Before the GM showed it, the crypt was the GM's secret, the tokens set up on it too: Ann's replay
    # starts at the showing.
    steps = table.http.get(
        f"/api/campaigns/{table.id}/encounters/Crypt fight/replay", headers=ann.auth
    ).json()
    assert steps["events"][0]["type"] == "map.scene_shown"
    assert "map.token_placed" not in [e["type"] for e in steps["events"]]
