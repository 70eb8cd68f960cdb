"""The map's deciders for token pictures (`map.token.picture`, `map.picture.add`).

A token's picture is an image of the campaign (checked and re-encoded as every image is) and the square of
it that the token's circle shows, both in the token's state: the GM frames it again at any time, undo
gives back the one before, and the players are sent only that square, cut out on the server
(docs/maps.md). The GM may give any token any image of the campaign; a player only their own characters'
tokens, and only a picture they uploaded: framing another square of an image the GM put on their token
would read the rest of it, square by square.
"""

from __future__ import annotations

from app.rules.campaign.state import CampaignState
from app.rules.errors import Forbidden, InputError, RuleError
from app.rules.map.command_models import AddPicture, SetPicture
from app.rules.map.lookups import audience, owns, token_name, token_of
from app.rules.map.state import Asset, Crop
from app.rules.system import Ctx, NewEvent

NO_SUCH_IMAGE = "There is no such image in this campaign."


def add_picture(state: CampaignState, cmd: AddPicture, ctx: Ctx) -> list[NewEvent]:
    """An uploaded picture joins the campaign's images; a player's upload marks it as theirs to use (the
    same bytes the GM uploaded before included: the player holds them)."""
    seat = None if ctx.actor.is_gm else ctx.actor.seat_id
    asset = state.map.asset(cmd.asset)
    if asset is not None and (seat is None or seat in asset.seats):
        raise RuleError("This image is already in the campaign.")
    data = {
        "asset": {"id": cmd.asset, "name": cmd.name, "width": cmd.width, "height": cmd.height},
        "seat": seat,
    }
    return [NewEvent(type="map.picture_added", data=data, audience="gm")]


def may_use(asset: Asset, ctx: Ctx) -> bool:
    """The GM any image; a player one they uploaded (not one the GM put on their token: its frame is
    all of it they may see)."""
    return ctx.actor.is_gm or ctx.actor.seat_id in asset.seats


def set_picture(state: CampaignState, cmd: SetPicture, ctx: Ctx) -> list[NewEvent]:
    token = token_of(state, cmd.token, ctx)
    if not ctx.actor.is_gm and not owns(ctx, token):
        raise Forbidden("You can change the picture of your own characters' tokens only.")
    if cmd.image is None:
        if cmd.crop is not None:
            raise InputError("A crop frames a picture: give the picture too, or no crop to take it off.")
        if token.image is None:
            raise RuleError("The token has no picture to take off.")
        changes: dict[str, object] = {"image": None, "crop": None}
    else:
        asset = state.map.asset(cmd.image)
        if asset is None or not may_use(asset, ctx):
            raise RuleError(f"{NO_SUCH_IMAGE} Upload the picture first.")
        crop = _crop(asset, cmd)
        if cmd.image == token.image and crop == token.crop:
            raise RuleError("Nothing to change: the token already shows that picture, framed so.")
        changes = {"image": asset.id, "crop": crop.model_dump(mode="json")}
    # A picture changes nothing of who sees the token: those who see it see its picture.
    data = {"token": token.id, "changes": changes, "name": token_name(state, token)}
    return [NewEvent(type="map.token_changed", data=data, audience=audience(state, token))]


def _crop(asset: Asset, cmd: SetPicture) -> Crop:
    """The square asked for, inside the picture; the largest square in its middle when none is."""
    if cmd.crop is None:
        side = min(asset.width, asset.height)
        return Crop(x=(asset.width - side) // 2, y=(asset.height - side) // 2, size=side)
    x, y, size = (round(v, 1) for v in (cmd.crop.x, cmd.crop.y, cmd.crop.size))
    if x + size > asset.width + 0.5 or y + size > asset.height + 0.5:
        raise InputError(
            f"The crop ({x:g}, {y:g}, {size:g} pixels square) reaches past the picture, which is "
            f"{asset.width} by {asset.height} pixels: frame a square inside it."
        )
    return Crop(x=x, y=y, size=min(size, asset.width - x, asset.height - y))
