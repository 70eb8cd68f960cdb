"""Creating campaigns and managing seats: join by invite, watch by spectator link, revoke, rotate.

Joining, watching and revoking are commands (`campaign.seat.*`, decided in app/rules/campaign/seats.py)
made by this module, never by a client: what is checked here is the invite code and the seat's token.
They are written through `commands.decide_and_append`, as every command is. Rotating an invite link
writes no event: the codes are secrets, kept in the campaign's row and never in its log.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from anyio import to_thread
from sqlalchemy import insert, select, update
from sqlmodel import col

from app.rules import registry
from app.rules.errors import Forbidden, InputError
from app.rules.system import CONTROL, NewEvent
from app.services import commands
from app.services.auth import SeatAuth, hash_token, new_code, new_id, new_token, same
from app.services.context import Fray
from app.store import log, projections
from app.store.models import Campaign, Seat
from app.store.states import CampaignMissing

NAME_MAX = 40


@dataclass(frozen=True)
class NewSeat:
    campaign_id: str
    seat_id: str
    token: str
    role: str
    seq: int = 0  # the seq of the seat's join event


@dataclass(frozen=True)
class NewCampaign:
    id: str
    gm: NewSeat
    invite_code: str
    spectator_code: str


def clean_name(
    name: str | None, what: str = "Your name", default: str | None = None, limit: int = NAME_MAX
) -> str:
    if any(c in CONTROL for c in name or ""):
        raise InputError(f"{what} holds a control character (such as NUL): take it out.")
    text = " ".join((name or "").split())
    if not text and default:
        return default
    if not text:
        raise InputError(f"{what} cannot be empty.")
    if len(text) > limit:
        raise InputError(f"{what} is too long: {limit} characters at most.")
    return text


def check_admin(fray: Fray, password: str | None) -> None:
    expected = fray.settings.admin_password
    if expected and not same(password or "", expected):
        raise Forbidden("Creating a campaign on this server needs the admin password.")


def create(
    fray: Fray,
    name: str,
    system: str,
    dice: str = "server",
    gm_name: str | None = None,
    admin_password: str | None = None,
) -> NewCampaign:
    check_admin(fray, admin_password)
    name = clean_name(name, "The campaign's name", limit=60)
    game = registry.game(system)
    if dice not in ("server", "manual"):
        raise InputError("Dice are rolled on the 'server' or typed in from physical dice ('manual').")
    cid, seat_id, token = new_id(5), new_id(), new_token()
    invite, spectator = new_code(), new_code()
    gm_name = clean_name(gm_name, "The GM's name", default="GM")
    with fray.db.write() as session:
        session.add(
            Campaign(id=cid, name=name, system=game.key, invite_code=invite, spectator_code=spectator)
        )
        session.add(Seat(id=seat_id, campaign_id=cid, role="gm", name=gm_name, token_hash=hash_token(token)))
        session.flush()
        created = [
            NewEvent(
                type="campaign.created",
                data={
                    "id": cid,
                    "name": name,
                    "system": game.key,
                    "dice_mode": dice,
                    "settings": game.default_settings(),
                },
            ),
            NewEvent(
                type="campaign.seat_joined", data={"seat": {"id": seat_id, "name": gm_name, "role": "gm"}}
            ),
        ]
        rows, events = log.stamped(cid, 0, created, seat_id, None)
        log.insert_rows(session, rows)
        state = game.replay(None, events)
        projections.sync(session, None, state)
    fray.states.put(state)
    return NewCampaign(cid, NewSeat(cid, seat_id, token, "gm"), invite, spectator)


def join(fray: Fray, campaign_id: str, code: str, name: str | None, role: str = "player") -> NewSeat:
    """Take a seat with an invite (player) or spectator code; the join is an event everyone sees. The code
    and the seat's token are checked and kept here; whether the seat may be taken is the rules'
    (`campaign.seat.join` / `campaign.seat.watch`, app/rules/campaign/seats.py)."""
    default = "Table" if role == "spectator" else None
    name = clean_name(name, default=default)
    clean_name(code, what="The invite code", limit=200)  # a NUL here would reach the database
    seat_id, token = new_id(), new_token()
    return commands.retrying(lambda: _join(fray, campaign_id, code, name, role, seat_id, token))


def _join(fray: Fray, campaign_id: str, code: str, name: str, role: str, seat_id: str, token: str) -> NewSeat:
    with fray.db.write_core(campaign_id) as conn:
        campaign = conn.execute(
            select(col(Campaign.system), col(Campaign.invite_code), col(Campaign.spectator_code)).where(
                col(Campaign.id) == campaign_id
            )
        ).one_or_none()
        if campaign is None:
            raise CampaignMissing("There is no such campaign.")
        expected = campaign.invite_code if role == "player" else campaign.spectator_code
        if not same(code or "", expected):
            raise Forbidden("That invite link is not valid any more: ask the GM for a fresh one.")
        game = registry.game(campaign.system)
        type_ = "campaign.seat.join" if role == "player" else "campaign.seat.watch"
        spec, command = game.parse({"type": type_, "seat": seat_id, "name": name}, internal=True)
        state = fray.states.current(conn, game, campaign_id)
        # The seat's token, in the same write as its event: a refusal takes both back.
        conn.execute(
            insert(Seat).values(
                id=seat_id,
                campaign_id=campaign_id,
                role=role,
                name=name,
                token_hash=hash_token(token),
                created_at=datetime.now(UTC),
            )
        )
        newcomer = SeatAuth(seat_id, campaign_id, role, name, game.key)
        result = commands.decide_and_append(fray, conn, game, state, newcomer, spec, command)
    return NewSeat(campaign_id, seat_id, token, role, result.seq)


def revoke(fray: Fray, gm: SeatAuth, seat_id: str) -> int:
    """Remove a seat (`campaign.seat.revoke`, the GM's): its token stops in the same write."""
    return commands.retrying(lambda: _revoke(fray, gm, seat_id))


def _revoke(fray: Fray, gm: SeatAuth, seat_id: str) -> int:
    game = registry.game(gm.system)
    spec, command = game.parse({"type": "campaign.seat.revoke", "seat": seat_id}, internal=True)
    with fray.db.write_core(gm.campaign_id) as conn:
        state = fray.states.current(conn, game, gm.campaign_id)
        conn.execute(
            update(Seat)
            .where(col(Seat.id) == seat_id, col(Seat.campaign_id) == gm.campaign_id)
            .values(revoked_at=datetime.now(UTC))
        )
        result = commands.decide_and_append(fray, conn, game, state, gm, spec, command)
    fray.seats.forget(gm.campaign_id, seat_id)
    return result.seq


def rotate(fray: Fray, gm: SeatAuth, which: str = "invite") -> str:
    """A fresh invite (or spectator) code (`campaign.link.rotate`, the GM's); links with the old one stop
    working. The code is written beside the event in one transaction, never into it."""
    return commands.retrying(lambda: _rotate(fray, gm, which))


def _rotate(fray: Fray, gm: SeatAuth, which: str) -> str:
    if not gm.is_gm:
        raise Forbidden("Only the GM can change the invite link.")
    game = registry.game(gm.system)
    link = "invite" if which == "invite" else "spectator"
    spec, command = game.parse({"type": "campaign.link.rotate", "link": link}, internal=True)
    code = new_code()
    column = Campaign.invite_code if link == "invite" else Campaign.spectator_code
    with fray.db.write_core(gm.campaign_id) as conn:
        state = fray.states.current(conn, game, gm.campaign_id)
        conn.execute(update(Campaign).where(col(Campaign.id) == gm.campaign_id).values({column: code}))
        commands.decide_and_append(fray, conn, game, state, gm, spec, command)
    return code


def codes(fray: Fray, gm: SeatAuth) -> tuple[str, str]:
    if not gm.is_gm:
        raise Forbidden("Only the GM sees the invite links.")
    with fray.db.read() as session:
        row = session.execute(
            select(col(Campaign.invite_code), col(Campaign.spectator_code)).where(
                col(Campaign.id) == gm.campaign_id
            )
        ).one()
    return row.invite_code, row.spectator_code


def exists(fray: Fray, campaign_id: str) -> bool:
    with fray.db.read() as session:
        return session.get(Campaign, campaign_id) is not None


# The web layer's entry points. Each owns its hop off the loop and its publish: a write runs in a worker
# thread (it may wait on the database's write lock); a small read goes through the database's `run_read`.
async def create_async(
    fray: Fray,
    name: str,
    system: str,
    dice: str = "server",
    gm_name: str | None = None,
    admin_password: str | None = None,
) -> NewCampaign:
    return await to_thread.run_sync(lambda: create(fray, name, system, dice, gm_name, admin_password))


async def join_async(
    fray: Fray, campaign_id: str, code: str, name: str | None, role: str = "player"
) -> NewSeat:
    seat = await to_thread.run_sync(join, fray, campaign_id, code, name, role)
    await fray.broker.publish(campaign_id, seat.seq)
    return seat


async def revoke_async(fray: Fray, gm: SeatAuth, seat_id: str) -> None:
    seq = await to_thread.run_sync(revoke, fray, gm, seat_id)
    await fray.broker.publish(gm.campaign_id, seq)
    # Sockets of the revoked seat are closed by the hub when it sees the revocation.


async def rotate_async(fray: Fray, gm: SeatAuth, which: str = "invite") -> str:
    return await to_thread.run_sync(rotate, fray, gm, which)


async def codes_async(fray: Fray, gm: SeatAuth) -> tuple[str, str]:
    return await fray.db.run_read(codes, fray, gm)


async def exists_async(fray: Fray, campaign_id: str) -> bool:
    return await fray.db.run_read(exists, fray, campaign_id)
