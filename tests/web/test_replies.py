"""A command's reply as JSON (app/web/replies.py): the scene's walls and lights written once, the text the
same as writing the whole reply."""

from __future__ import annotations

import json

from app.web import replies
from app.web.replies import reply_json


def _reply(walls: list, name: str = "Crypt") -> dict:
    lights = [{"id": "l1", "x": 10.5, "y": 20.0, "bright": 64.0, "dim": 128.0, "color": None}]
    board = {"scene": "s1", "name": name, "walls": walls, "lights": lights}
    view = {"campaign": {"name": name}, "map": board}
    return {"seq": 7, "events": [{"type": "map.token.moved", "data": {"x": 1.5}}], "view": view}


def _walls(n: int) -> list:
    return [
        {"id": f"w{i}", "kind": "door" if i % 7 == 0 else "wall", "points": [[i * 1.5, 2.0], [3.25, i]]}
        for i in range(n)
    ]


def test_a_reply_reads_as_the_whole_reply_written_at_once():
    reply = _reply(_walls(40), name='Tomb «of» "ash"')
    text = reply_json(reply)
    assert text == json.dumps(reply, ensure_ascii=False, separators=(",", ":"))
    assert json.loads(text) == reply


def test_walls_a_view_shares_are_written_once_and_other_walls_afresh():
    walls = _walls(30)
    first = reply_json(_reply(walls))
    assert (
        replies._texts.get(walls, lambda _: "not kept") == first.split('"walls":', 1)[1].split(',"lights"')[0]
    )
    assert reply_json(_reply(walls, name="Other")) == first.replace('"Crypt"', '"Other"')
    changed = _walls(31)  # another list: its own text, not the one kept for the first
    assert json.loads(reply_json(_reply(changed)))["view"]["map"]["walls"] == changed


def test_a_name_that_looks_like_the_marker_is_written_as_it_is():
    tricky = "\0walls"  # what a client might guess; the marker holds a nonce it cannot know
    reply = _reply(_walls(3), name=tricky)
    assert json.loads(reply_json(reply)) == reply


def test_a_reply_without_walls_is_written_whole():
    reply = {"seq": 1, "events": [], "view": {"map": {"scene": None}}}
    assert reply_json(reply) == json.dumps(reply, ensure_ascii=False, separators=(",", ":"))


def test_the_views_characters_and_seats_are_written_once_and_the_reply_reads_as_written_whole():
    people = [{"id": f"p{i}", "name": f"Hero «{i}»", "mine": i == 3, "owner_name": None} for i in range(50)]
    seats = [{"id": f"s{i}", "name": f"P{i}", "role": "player", "revoked": False} for i in range(50)]
    view = {"campaign": {"name": "A"}, "participants": people, "seats": seats}
    reply = {"seq": 3, "events": [], "view": view}
    text = reply_json(reply)
    assert text == json.dumps(reply, ensure_ascii=False, separators=(",", ":"))
    assert replies._texts.get(people, lambda _: "not kept") == json.dumps(
        people, ensure_ascii=False, separators=(",", ":")
    )
    renamed = {**reply, "view": {**reply["view"], "campaign": {"name": "B"}}}
    assert reply_json(renamed) == text.replace('"name":"A"', '"name":"B"', 1)
    assert json.loads(reply_json({**reply, "view": {**reply["view"], "seats": []}}))["view"]["seats"] == []
