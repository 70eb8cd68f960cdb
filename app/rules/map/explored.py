"""What the players have explored, kept as state derived from the log (so it survives reloads, restarts
and snapshots, and an undo takes back what an undone move showed).

After every event that changes what a player character's token sees on a scene with vision (a token
placed, moved or given other sight; a wall, door or light changed; the scene's vision or light changed),
each affected character's explored area of that scene grows by its token's sight now. Stored per scene and
character as polygons in whole pixels (`walls.Explored`); the party's shared area is the union of its
members', read when `share_explored` is on (app/rules/map/sight.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import shapely

from app.rules.campaign.state import CampaignState
from app.rules.map import vision
from app.rules.map.sight import party
from app.rules.map.walls import Explored, rings_of
from app.rules.system import Event

Reducer = Callable[[CampaignState, Event], CampaignState]
Scope = Callable[[CampaignState, Event], tuple[str | None, Iterable[str] | None]]


def record_sight(
    state: CampaignState, scene_id: str | None, token_ids: Iterable[str] | None = None
) -> CampaignState:
    """Each player character's token on the scene (or these of them) adds what it sees to its explored."""
    scene = state.map.scene(scene_id)
    if scene is None or not scene.vision:
        return state
    pcs = party(state)
    only = None if token_ids is None else set(token_ids)
    tokens = [
        t
        for t in state.map.tokens
        if t.scene == scene.id and t.participant in pcs and (only is None or t.id in only)
    ]
    if not tokens:
        return state
    explored = list(state.map.explored)
    where = {(e.scene, e.participant): i for i, e in enumerate(explored)}
    changed = False
    for token in tokens:
        assert token.participant is not None
        seen = vision.token_sight(scene, token)
        at = where.get((scene.id, token.participant))
        record = explored[at] if at is not None else None
        if record is not None and _absorbed(record, seen):
            continue  # this very sight was found in it before: a step back onto known ground
        old = record.shape if record is not None else None
        try:
            if old is not None and shapely.covers(old, seen):
                _absorb(record, seen)
                continue
            area = bounded(seen if old is None else shapely.union(old, seen))
        except shapely.errors.GEOSException:  # a reducer never fails: this sight is not recorded
            continue
        if old is not None and shapely.area(area) - shapely.area(old) < 1.0:
            _absorb(record, seen)
            continue  # nothing new, to within a pixel
        rings = rings_of(area)
        grown = Explored.model_construct(scene=scene.id, participant=token.participant, polygons=rings)
        grown.__dict__["shape"] = area  # what `shape` would make of the rings: the same polygons
        _absorb(grown, seen)
        if at is None:
            where[(scene.id, token.participant)] = len(explored)
            explored.append(grown)
        else:
            explored[at] = grown
        changed = True
    if not changed:
        return state
    return state.model_copy(update={"map": state.map.model_copy(update={"explored": tuple(explored)})})


ABSORBED = 16  # the sights an explored record remembers holding


def _absorbed(record: Explored, seen: shapely.Geometry) -> bool:
    """Whether this sight (the scene's remembered one for a spot, app/rules/map/vision.py) is known to add
    nothing to the record: a token stepping back and forth over ground it has seen costs no union."""
    return any(s is seen for s in record.__dict__.get(_ABSORBED, ()))


def _absorb(record: Explored | None, seen: shapely.Geometry) -> None:
    """Remember on the record (beside its fields, as `frozen.kept` does: dumps and equality ignore it)
    that it holds this sight; the newest few, by identity."""
    if record is not None:
        record.__dict__[_ABSORBED] = (seen, *record.__dict__.get(_ABSORBED, ()))[:ABSORBED]


_ABSORBED = "_absorbed_sights"  # a key of the record's __dict__ that is no field


def bounded(area: shapely.Geometry) -> shapely.Geometry:
    """An explored area kept small: its edges straightened to within half a pixel (the sight polygons'
    many near-parallel rays), its corners on whole pixels, only its parts with an area."""
    return vision.areal(shapely.set_precision(shapely.simplify(area, 0.5), 1.0))


def recording(reducer: Reducer, scope: Scope) -> Reducer:
    """The reducer, then the sight it changed recorded: `scope` names the scene and the tokens (None:
    every token of the scene) from the state after the event."""

    def reduce(state: CampaignState, event: Event) -> CampaignState:
        after = reducer(state, event)
        scene_id, tokens = scope(after, event)
        return record_sight(after, scene_id, tokens)

    reduce.__name__ = reducer.__name__
    reduce.__doc__ = reducer.__doc__
    return reduce


def of_token(state: CampaignState, event: Event) -> tuple[str | None, Iterable[str] | None]:
    """The scene and the token an event about one token names."""
    data = event.payload
    token_id = data.token.id if hasattr(data.token, "id") else data.token
    token = state.map.token(token_id)
    return (token.scene if token else None), [token_id]


def of_scene(state: CampaignState, event: Event) -> tuple[str | None, Iterable[str] | None]:
    """Every token of the scene the event names."""
    return event.payload.scene, None


def forget(
    state: CampaignState, scene_id: str | None = None, participant: str | None = None
) -> tuple[Explored, ...]:
    """The explored areas without a scene's (None: any scene) or a character's (None: anyone's)."""
    return tuple(
        e
        for e in state.map.explored
        if not (
            (scene_id is None or e.scene == scene_id)
            and (participant is None or e.participant == participant)
        )
    )
