"""The map's look-ups and audiences, shared by its deciders: a look-up never names what the asker may not
see, and an event's audience follows what it shows (the map's `Sight` decides both).

Who may see an event: anything done on a scene the players are not shown is the GM's alone; a hidden token,
or a token under fog, is the GM's (and the token owner's); fog strokes are the GM's (the players see the
image change, never the shapes); a drawing under fog stays the GM's. So no log line or socket message
carries any of it to the table. Hidden is one flag: a character's token is hidden exactly when the
character is (`campaign.participant_hidden`), so hiding either hides both. On a scene with vision (sight
from walls) each player sees only what their characters see: an event about a token is for the players
whose characters see it (and its owner), never for the whole table.
"""

from __future__ import annotations

from collections.abc import Callable

from app.rules.campaign.state import CampaignState
from app.rules.errors import InputError, RuleError
from app.rules.map.command_models import GridIn
from app.rules.map.geometry import snap
from app.rules.map.sight import ANY_PLAYER, Sight, party
from app.rules.map.state import Grid, Scene, Token
from app.rules.system import Ctx, Viewer, audience_of

MAX_FOG_STROKES = 100  # a scene's; a whole-scene stroke starts the list over
MAX_TOKENS = 500
MAX_SCENES = 100
MAX_DRAWINGS = 100  # a scene's
MAX_DRAWN_POINTS = 2_500  # every drawing of a scene together
MAX_WALL_SEGMENTS = 2_000  # a scene's walls, doors and windows together
MAX_LIGHTS = 200  # a scene's


# --- look-ups that never name what the asker may not see -------------------------------------


def scene_of(state: CampaignState, ref: str, ctx: Ctx) -> Scene:
    scene = state.map.scene(ref)
    if scene is None or not (ctx.actor.is_gm or scene.id == state.map.shown):
        raise RuleError("There is no such scene in this campaign.")
    return scene


def token_of(state: CampaignState, ref: str, ctx: Ctx) -> Token:
    """A token the asker may see: the GM any; a player one on the shown scene, theirs or in the open."""
    token = state.map.token(ref)
    if token is None or not (
        ctx.actor.is_gm
        or (
            token.scene == state.map.shown and Sight(state, ctx.actor, as_seen(state, ctx.actor)).token(token)
        )
    ):
        raise RuleError("There is no such token on the map.")
    return token


def owns(ctx: Ctx, token: Token) -> bool:
    return token.participant is not None and token.participant in ctx.actor.participants


def visible_to_players(state: CampaignState, token: Token, seen: CampaignState | None = None) -> bool:
    """Whether the table (any player) may see this token: the map's one answer (`Sight`), with the
    characters as the game lets the table see them (5x5's fog of war conceals some)."""
    return Sight(state, ANY_PLAYER, seen or as_seen(state, ANY_PLAYER)).token(token)


def as_seen(state: CampaignState, viewer: Viewer) -> CampaignState:
    """The campaign with what the game conceals from this viewer hidden (`Game.as_seen_by`)."""
    from app.rules import registry  # the registry's games are made of this module's parts

    return registry.game(state.system).as_seen_by(state, viewer)


def audience(state: CampaignState, *tokens: Token) -> str:
    """Everyone when the table may see the token (before and after), else the GM and its owner; the GM
    alone for a token on a scene the players are not shown (preparing is private)."""
    if any(t.scene != state.map.shown for t in tokens):
        return "gm"
    watchers = seers(state, lambda sight: all(sight.token(t) for t in tokens))
    if watchers is None and all(visible_to_players(state, t) for t in tokens):
        return "all"
    owners = {t.participant for t in tokens if t.participant} | (watchers or set())
    return audience_of(*owners) if owners else "gm"


def seers(state: CampaignState, sees: Callable[[Sight], bool]) -> set[str] | None:
    """On the shown scene with vision, the player characters whose own sight passes `sees`; None without
    vision (the table sees alike: ask the table's sight)."""
    shown = state.map.scene(state.map.shown)
    if shown is None or not shown.vision:
        return None
    viewers = [Viewer(role="player", participants=frozenset({pid})) for pid in party(state)]
    return {next(iter(v.participants)) for v in viewers if sees(Sight(state, v, as_seen(state, v)))}


def scene_audience(state: CampaignState, scene: Scene) -> str:
    return "all" if scene.id == state.map.shown else "gm"


def inside(scene: Scene, x: float, y: float, ctx: Ctx) -> None:
    if not (0 <= x <= scene.width and 0 <= y <= scene.height):
        if not ctx.actor.is_gm:
            raise InputError("That spot is off the map.")
        raise InputError(
            f"That spot ({x:g}, {y:g}) is off the scene, which is {scene.width} by {scene.height} pixels."
        )


def placed(scene: Scene, x: float, y: float, free: bool, ctx: Ctx) -> tuple[float, float]:
    inside(scene, x, y, ctx)
    if free or scene.grid.type == "none":
        return (round(x, 1), round(y, 1))
    sx, sy = snap(scene.grid, x, y)
    sx, sy = min(max(sx, 0.0), float(scene.width)), min(max(sy, 0.0), float(scene.height))
    return (round(sx, 1), round(sy, 1))


def grid_of(grid: GridIn) -> Grid:
    return Grid.model_validate(grid.model_dump())


def token_name(state: CampaignState, token: Token) -> str:
    if token.participant:
        p = state.find_participant(token.participant)
        return p.name if p else "A token"
    return token.label or "A marker"
