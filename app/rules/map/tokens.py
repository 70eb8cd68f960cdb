"""The map's deciders for tokens (`map.token.*`): placing, moving, hiding (the character's one flag) and
changing them."""

from __future__ import annotations

from app.rules.campaign.state import CampaignState, Participant, new_id, replace_item
from app.rules.errors import Forbidden, InputError, RuleError
from app.rules.map.command_models import MoveToken, PlaceToken, RemoveToken, SetToken
from app.rules.map.lookups import (
    MAX_TOKENS,
    audience,
    owns,
    placed,
    scene_of,
    seers,
    token_name,
    token_of,
    visible_to_players,
)
from app.rules.map.state import Token
from app.rules.system import Ctx, NewEvent, audience_of


def place_token(state: CampaignState, cmd: PlaceToken, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx)
    if len(state.map.tokens) >= MAX_TOKENS:
        raise RuleError(f"A campaign keeps at most {MAX_TOKENS} tokens: remove some first.")
    if (cmd.participant is None) == (cmd.label is None):
        raise InputError("A token is for a character (participant) or a free marker (label): give one.")
    participant = None
    if cmd.participant is not None:
        participant = state.participant(cmd.participant)
        if any(t.participant == participant.id and t.scene == scene.id for t in state.map.tokens):
            raise RuleError(f"{participant.name} already has a token on this scene: move it instead.")
    x, y = placed(scene, cmd.x, cmd.y, cmd.free, ctx)
    token = Token(
        id=new_id(state, "t"),
        scene=scene.id,
        x=x,
        y=y,
        participant=participant.id if participant else None,
        label=None if participant else cmd.label,
        color=cmd.color,
        size=cmd.size,
        hidden=cmd.hidden and participant is None,  # a character's token is hidden with the character
    )
    data = {"token": token.model_dump(mode="json"), "name": participant.name if participant else cmd.label}
    events: list[NewEvent] = []
    if participant is not None and cmd.hidden and not participant.hidden:
        events.append(_hidden_event(participant))
        participant = participant.model_copy(update={"hidden": True})
    who = audience(_with_participant(state, participant), token)
    return [*events, NewEvent(type="map.token_placed", data=data, audience=who)]


def _hidden_event(participant: Participant) -> NewEvent:
    """Hiding a character, whichever way the GM asked (its token, or the character): the GM's alone."""
    data = {"participant": participant.id, "name": participant.name}
    return NewEvent(type="campaign.participant_hidden", data=data, audience="gm")


def _revealed_event(participant: Participant) -> NewEvent:
    # Revealing hands the players everything public about the character at once.
    return NewEvent(
        type="campaign.participant_revealed", data={"participant": participant.model_dump(exclude={"notes"})}
    )


def _with_participant(state: CampaignState, participant: Participant | None) -> CampaignState:
    """The state with one character as it will be (hidden or revealed), to judge an audience by."""
    if participant is None or state.find_participant(participant.id) == participant:
        return state
    return state.model_copy(update={"participants": replace_item(state.participants, participant)})


def move_token(state: CampaignState, cmd: MoveToken, ctx: Ctx) -> list[NewEvent]:
    token = token_of(state, cmd.token, ctx)
    scene = state.map.scene(token.scene)
    assert scene is not None
    if not ctx.actor.is_gm:
        if not owns(ctx, token):
            raise Forbidden("You can move only your own characters' tokens.")
        if token.locked:
            raise Forbidden("The GM has locked this token.")
        if not scene.player_moves:
            raise Forbidden("The GM moves the tokens on this scene.")
    x, y = placed(scene, cmd.x, cmd.y, cmd.free, ctx)
    if (x, y) == (token.x, token.y):
        raise RuleError("The token is already there.")
    moved = token.model_copy(update={"x": x, "y": y})
    data = {"token": token.id, "x": x, "y": y, "name": token_name(state, token)}
    return [NewEvent(type="map.token_moved", data=data, audience=audience(state, token, moved))]


def remove_token(state: CampaignState, cmd: RemoveToken, ctx: Ctx) -> list[NewEvent]:
    token = token_of(state, cmd.token, ctx)
    data = {"token": token.id, "name": token_name(state, token)}
    return [NewEvent(type="map.token_removed", data=data, audience=audience(state, token))]


def set_token(state: CampaignState, cmd: SetToken, ctx: Ctx) -> list[NewEvent]:
    token = token_of(state, cmd.token, ctx)
    fields = cmd.model_dump(include={"hidden", "locked", "size", "color", "label"}, exclude_none=True)
    if cmd.sight is not None:  # its range None is unlimited, not "unchanged"
        fields["sight"] = cmd.sight.model_dump()
    participant = state.find_participant(token.participant) if token.participant else None
    if "label" in fields and participant is not None:
        raise InputError("A character's token carries the character's name: change the name instead.")
    events: list[NewEvent] = []
    if participant is not None and "hidden" in fields:
        # Hidden is the character's flag: hiding its token hides the character, and revealing reveals it.
        hidden = fields.pop("hidden")
        if hidden != participant.hidden:
            events.append(_hidden_event(participant) if hidden else _revealed_event(participant))
            participant = participant.model_copy(update={"hidden": hidden})
    changes = {
        k: v
        for k, v in fields.items()
        if (token.sight.model_dump() if k == "sight" else getattr(token, k)) != v
    }
    if not changes and not events:
        raise RuleError("Nothing to change: the token is already like that.")
    if changes:
        after = _with_participant(state, participant)
        changed = Token.model_validate({**token.model_dump(), **changes})
        data = {"token": token.id, "changes": changes, "name": token_name(state, token)}
        who = _change_audience(state, after, token, changed)
        events.append(NewEvent(type="map.token_changed", data=data, audience=who))
    return events


def _change_audience(before: CampaignState, after: CampaignState, old: Token, new: Token) -> str:
    """`_audience` for a token as it was in one state and is in another (its character hidden since)."""
    if old.scene != before.map.shown:
        return "gm"
    then, now = seers(before, lambda s: s.token(old)), seers(after, lambda s: s.token(new))
    if then is None or now is None:
        if visible_to_players(before, old) and visible_to_players(after, new):
            return "all"
        return audience_of(old.participant) if old.participant else "gm"
    who = (then & now) | ({old.participant} if old.participant else set())
    return audience_of(*who) if who else "gm"
