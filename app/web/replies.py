"""A command's reply written as JSON, with the lists a view keeps written once, not on every reply.

A GM's reply holds their whole view, and on a scene with walls most of it is the walls: 300 of them are
30 KB of JSON, a millisecond to write, every time a token moves. The view shares the lists a scene keeps
(app/rules/map/view.py, `_gm_sight`: a move leaves the scene as it was), so their text is kept by identity
(each list held while its text is, so its id stays its own; a view is never changed once built) and put in
place of a marker no client can write (it holds a nonce of this process).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi.responses import JSONResponse

from app.realtime.digests import ByIdentity

SPLICED = ("walls", "lights")  # the parts of a GM's map view a scene keeps
# The view's lists kept from push to push while the campaign's characters and seats are the same tuples
# (app/rules/campaign/view.py): a table of 200 phones is most of a reply.
SPLICED_VIEW = ("participants", "seats")
KEPT = 256  # lists whose text is kept
_NONCE = secrets.token_hex(12)
_texts = ByIdentity(KEPT)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def reply_json(reply: dict[str, Any]) -> str:
    """The reply as JSON text, as `json.dumps` would write it."""
    view = reply.get("view")
    if not isinstance(view, dict):
        return _dumps(reply)
    m = view.get("map")
    m = m if isinstance(m, dict) else {}
    parts = [k for k in SPLICED if isinstance(m.get(k), list) and m[k]]
    listed = [k for k in SPLICED_VIEW if isinstance(view.get(k), list) and view[k]]
    if not parts and not listed:
        return _dumps(reply)
    markers = {k: f"\0{_NONCE}:{k}" for k in parts}
    outer = {k: f"\0{_NONCE}:view.{k}" for k in listed}
    spliced = {**view, **outer}
    if parts:
        spliced["map"] = {**m, **markers}
    text = _dumps({**reply, "view": spliced})
    for k, marker in markers.items():
        text = text.replace(_dumps(marker), _texts.get(m[k], _dumps), 1)
    for k, marker in outer.items():
        text = text.replace(_dumps(marker), _texts.get(view[k], _dumps), 1)
    return text


class ReplyJSON(JSONResponse):
    def render(self, content: Any) -> bytes:
        return reply_json(content).encode()
