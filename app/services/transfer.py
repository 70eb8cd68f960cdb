"""A campaign as one file: export it, import it on this server or another (SQLite or PostgreSQL).

The file is gzip'd JSON: a format marker and version, the campaign row, its seats (token hashes only),
its whole event log as stored, and the images its map uses. Importing checks everything before writing
anything, and writes in one transaction: a file that fails a check creates nothing.

An imported image is checked and re-encoded as an upload is (`map_images.prepare`), so its id (the hash
of its bytes) changes: the log is renamed to match. The new campaign holds only the images whose bytes
the file carries; an id its log names without them reads nothing.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from anyio import to_thread
from sqlalchemy import select
from sqlmodel import col

from app.rules import registry
from app.rules.errors import Forbidden, InputError, RuleError
from app.services import map_images
from app.services.auth import hash_token, new_code, new_id, new_token
from app.services.context import Fray
from app.store import projections
from app.store.log import T as EVENTS
from app.store.models import AssetBlob, Campaign, CampaignAsset, Seat

FORMAT = "fray-campaign"
# Of the file. 2: each event record carries the version of its payload it was written at (a record
# without one, as in every version-1 file, is version 1); the events are upcast on load, never rewritten.
VERSION = 2
MAX_EVENTS = 1_000_000


class ImportRefused(InputError):
    """A file that is not a whole Fray campaign this version can read."""


@dataclass(frozen=True)
class Imported:
    campaign_id: str
    gm_token: str | None  # a fresh GM link's token, when the seats' old tokens were not kept
    same_id: bool
    events: int


def _when(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def export(fray: Fray, campaign_id: str) -> bytes:
    with fray.db.read() as session:
        campaign = session.get(Campaign, campaign_id)
        if campaign is None:
            raise RuleError("There is no such campaign.")
        seats = session.scalars(select(Seat).where(col(Seat.campaign_id) == campaign_id)).all()
        rows = session.execute(
            select(EVENTS).where(EVENTS.c.campaign_id == campaign_id).order_by(EVENTS.c.seq)
        ).mappings()
        events = [{k: _when(v) for k, v in row.items() if k not in ("id", "campaign_id")} for row in rows]
        # The images the campaign holds, not every id its log names: a log may name another's image.
        held = select(col(CampaignAsset.asset_id)).where(col(CampaignAsset.campaign_id) == campaign_id)
        blobs = session.scalars(select(AssetBlob).where(col(AssetBlob.id).in_(held))).all()
        document = {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": datetime.now(UTC).isoformat(),
            "campaign": {
                "id": campaign.id,
                "name": campaign.name,
                "system": campaign.system,
                "invite_code": campaign.invite_code,
                "spectator_code": campaign.spectator_code,
                "created_at": _when(campaign.created_at),
            },
            "seats": [
                {
                    "id": s.id,
                    "role": s.role,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "created_at": _when(s.created_at),
                    "revoked_at": _when(s.revoked_at),
                }
                for s in seats
            ],
            "events": events,
            "assets": [
                {
                    "id": b.id,
                    "mime": b.mime,
                    "width": b.width,
                    "height": b.height,
                    "data": base64.b64encode(bytes(b.data)).decode(),
                }
                for b in blobs
            ],
        }
    body = json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode()
    return gzip.compress(body, compresslevel=6, mtime=0)


def read_file(raw: bytes) -> dict[str, Any]:
    """The file's document, checked for shape; ImportRefused with the reason otherwise."""
    try:
        text = gzip.decompress(raw)
    except (OSError, EOFError, zlib.error):
        raise ImportRefused(
            "That file is not a Fray campaign export (not gzip), or it was cut short."
        ) from None
    try:
        document = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested thousands deep
        raise ImportRefused("That file is damaged: its contents are not a Fray campaign export.") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused("That file is not a Fray campaign export.")
    version = document.get("version")
    if not isinstance(version, int) or version < 1:
        raise ImportRefused("That file's format version is missing or damaged.")
    if version > VERSION:
        raise ImportRefused(
            f"That file was made by a newer Fray (format {version}; this one reads {VERSION}): upgrade first."
        )
    for key, kind in (("campaign", dict), ("seats", list), ("events", list), ("assets", list)):
        if not isinstance(document.get(key), kind):
            raise ImportRefused(f"That file is damaged: its {key} are missing.")
    return document


def events_of(records: list[dict[str, Any]]) -> list[Any]:
    """A file's event records as the rules read them."""
    from app.rules.events import UnknownEvent
    from app.rules.system import Event

    versions = [e.get("version", 1) for e in records if isinstance(e, dict)]
    if any(type(v) is not int or v < 1 for v in versions):
        raise ImportRefused("That file is damaged: an event's version is not a whole number from 1 up.")
    try:
        return [
            Event(
                seq=e["seq"],
                type=e["type"],
                data=e["data"],
                version=e.get("version", 1),
                audience=e.get("audience", "all"),
                actor=e.get("actor"),
                encounter=e.get("encounter_id"),
                batch=e.get("batch", 0),
                at=e.get("at"),
            )
            for e in records
        ]
    except UnknownEvent as error:  # a version newer than this Fray's, or a type it does not know
        raise ImportRefused(
            f"That file holds an event this Fray cannot read ({error}): upgrade first."
        ) from None
    except (KeyError, TypeError, ValueError):
        raise ImportRefused("That file is damaged: an event in its log is incomplete.") from None


def _replay(game: Any, records: list[dict[str, Any]]) -> Any:
    """Replay the log as the game reads it: a log that does not fold is refused before any write."""
    parsed = events_of(records)
    if [e.seq for e in parsed] != list(range(1, len(parsed) + 1)) or parsed[0].type != "campaign.created":
        raise ImportRefused("That file's log is not whole: its events must run from 1 without a gap.")
    try:
        return game.replay(None, parsed)
    except Exception:  # any reducer's complaint means this server cannot read the log
        raise ImportRefused("That file's log cannot be replayed by this version of Fray.") from None


def renamed(records: list[dict[str, Any]], names: dict[str, str]) -> list[dict[str, Any]]:
    """A copy's events with its campaign and seat ids renamed (random ids: each is its own whole string)."""
    if not names:
        return records
    out = []
    for e in records:
        text = json.dumps(e["data"])
        for old, new in names.items():
            text = text.replace(json.dumps(old), json.dumps(new))
        actor = e.get("actor")
        out.append(
            {**e, "data": json.loads(text), "actor": names.get(actor, actor) if actor is not None else None}
        )
    return out


def import_campaign(fray: Fray, raw: bytes, keep_seats: bool = False) -> Imported:
    try:
        return _import(fray, read_file(raw), keep_seats)
    except (KeyError, TypeError, ValueError, AttributeError):  # a field missing or of the wrong kind
        raise ImportRefused("That file is damaged: part of the campaign is missing or malformed.") from None


# The web layer's entry points: a whole campaign is read or written in a worker thread.
async def export_async(fray: Fray, campaign_id: str) -> bytes:
    return await to_thread.run_sync(export, fray, campaign_id)


async def import_campaign_async(fray: Fray, raw: bytes, keep_seats: bool = False) -> Imported:
    return await to_thread.run_sync(import_campaign, fray, raw, keep_seats)


def checked_images(fray: Fray, assets: list[dict[str, Any]]) -> dict[str, map_images.Prepared]:
    """The file's images checked and re-encoded as uploads are, by the id the file gives each; the first
    that fails refuses the whole import, with the upload's sentence."""
    settings = fray.settings
    prepared: dict[str, map_images.Prepared] = {}
    total = 0
    for a in assets:
        raw = base64.b64decode(a["data"])
        if hashlib.sha256(raw).hexdigest() != a["id"]:
            raise ImportRefused("That file is damaged: an image does not match its name.")
        try:
            prepared[a["id"]] = map_images.prepare(
                raw, settings.max_upload_bytes, settings.max_image_side, settings.max_image_pixels
            )
        except map_images.TooLarge:
            raise
        except InputError as error:
            raise ImportRefused(f"An image in that file was refused: {error}") from None
        total += len(prepared[a["id"]].data)
        if total > settings.campaign_storage_bytes:  # checked as it goes: no re-encoding past the quota
            raise map_images.TooLarge(
                f"That file's images take more than {settings.campaign_storage_bytes / 1024 / 1024:.1f} MB, "
                "what a campaign may keep: delete some from the campaign and export it again."
            )
    return prepared


def _import(fray: Fray, document: dict[str, Any], keep_seats: bool) -> Imported:
    source = document["campaign"]
    game = registry.game(str(source.get("system", "")))  # an unknown game: a sentence saying so
    records = document["events"]
    if not records or len(records) > MAX_EVENTS:
        raise ImportRefused("That file holds no event log to import.")
    _replay(game, records)  # checked before anything is written
    images = checked_images(fray, document["assets"])
    with fray.db.write() as session:
        same_id = session.get(Campaign, source["id"]) is None
        cid = source["id"] if same_id else new_id(5)
        seat_ids = [s["id"] for s in document["seats"]]
        taken = set(session.scalars(select(col(Seat.id)).where(col(Seat.id).in_(seat_ids))))
        if keep_seats and taken:
            raise Forbidden("These seats are already at this server: import without --keep-seats.")
        # A copy beside its original (the same server) gets ids of its own for the campaign and its seats.
        names = {old: new_id() for old in taken} | ({} if same_id else {source["id"]: cid})
        names |= {old: p.id for old, p in images.items() if old != p.id}
        records = renamed(records, names)
        state = _replay(game, records)
        codes = [c for c in (source.get("invite_code"), source.get("spectator_code")) if c]
        clash = select(col(Campaign.id)).where(
            col(Campaign.invite_code).in_(codes) | col(Campaign.spectator_code).in_(codes)
        )
        invite, spectator = (
            codes if len(codes) == 2 and not session.scalars(clash).first() else (new_code(), new_code())
        )
        session.add(
            Campaign(id=cid, name=state.name, system=game.key, invite_code=invite, spectator_code=spectator)
        )
        gm_token = None
        for s in document["seats"]:
            token_hash = s["token_hash"]
            if not keep_seats:
                token = new_token()
                token_hash = hash_token(token)
                if s["role"] == "gm" and gm_token is None and not s.get("revoked_at"):
                    gm_token = token
            revoked = datetime.fromisoformat(s["revoked_at"]) if s.get("revoked_at") else None
            session.add(
                Seat(
                    id=names.get(s["id"], s["id"]),
                    campaign_id=cid,
                    role=s["role"],
                    name=s["name"],
                    token_hash=token_hash,
                    revoked_at=revoked,
                )
            )
        session.flush()
        for e in records:
            session.execute(
                EVENTS.insert().values(
                    campaign_id=cid,
                    seq=e["seq"],
                    type=e["type"],
                    data=e["data"],
                    version=e.get("version", 1),  # kept as written; upcast when read
                    audience=e.get("audience", "all"),
                    actor=e.get("actor"),
                    encounter_id=e.get("encounter_id"),
                    batch=e.get("batch", 0),
                    command_id=e.get("command_id"),
                    at=datetime.fromisoformat(e["at"]) if e.get("at") else datetime.now(UTC),
                )
            )
        for prepared in images.values():
            map_images.keep(session, cid, prepared)
        projections.sync(session, None, state)
    return Imported(cid, gm_token, same_id, len(records))
