"""One answer to "what may this viewer see of the map": a `Sight`, asked by every channel.

Views (tokens, drawings), event audiences and the players' reading of events, refusals (a token a player
cannot see is no token), pings, rulers and drag ghosts, and the image a player is sent all call this one
class, so a rule of sight changes it alone. A player's sight is the shown scene, less the GM's fog, less what
is hidden; every player sees the same map, so `key` is the same for all of them and one masked image serves
them all. The GM sees everything.

On a scene with `vision` on (sight from walls, app/rules/map/vision.py) a player sees, besides, only what
their characters' tokens see now (a viewer with no characters, such as the table's TV, what every player
character sees), and their image holds only what those characters have explored: `seen_region` and
`explored` answer with shapes, the rest as before, and `key` names the characters whose sight a viewer gets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import is_
from typing import Any, TypeVar

import shapely

from app.rules.campaign.state import CampaignState, Participant
from app.rules.contract.frozen import kept, kept_table
from app.rules.map import vision
from app.rules.map.geometry import drawings_in_the_open, scene_fogged
from app.rules.map.state import Drawing, FogOp, MapState, Point, Scene, Token
from app.rules.map.walls import Wall
from app.rules.system import Viewer

T = TypeVar("T")
ANY_PLAYER = Viewer(role="player")  # a player with no character of their own: what the table sees


class Sight:
    """What one viewer sees of the map in one state. Cheap to make: the fog tests it asks are remembered
    with the scene (`scene_fogged`), so many sights of one state share them."""

    def __init__(self, state: CampaignState, viewer: Viewer, seen: CampaignState | None = None):
        self.state = state
        self.viewer = viewer
        self.seen = seen or state  # the characters as this viewer may see them (a game's own concealment)
        self.everything = viewer.is_gm
        self.shown = state.map.scene(state.map.shown)

    @property
    def key(self) -> str:
        """Viewers with the same key see the same map: the GM; everyone else while the shown scene has no
        vision; with vision, the viewers who get the sight of the same characters."""
        if self.everything:
            return "gm"
        if self.shown is None or not self.shown.vision:
            return "players"
        return "sight:" + ",".join(sorted(self.sighted))

    # -- sight from walls ------------------------------------------------------------------------

    @property
    def sighted(self) -> frozenset[str]:
        """The characters whose sight this viewer gets: their own player characters; for a viewer with
        none (a spectator, the table's TV), every player character the players may see."""
        return sighted(self.state, self.viewer)

    def vision(self, scene: Scene) -> bool:
        """Whether sight from walls limits what this viewer sees of the scene."""
        return scene.vision and not self.everything

    def seen_region(self, scene: Scene) -> shapely.Geometry | None:
        """What the viewer's characters see of the scene now (their tokens' sight, in one prepared shape);
        None when no vision applies (the GM, or a scene without vision); empty on a scene not shown."""
        if not self.vision(scene):
            return None
        if not self.scene(scene):
            return shapely.Polygon()
        return vision.sight_of(scene, self._seeing(scene))

    def _seeing(self, scene: Scene) -> list[Token]:
        """The tokens whose sight this viewer gets on the scene."""
        pcs = self.sighted
        return [t for t in self.state.map.tokens if t.scene == scene.id and t.participant in pcs]

    def of_seen(self, scene: Scene, what: str, build: Callable[[shapely.Geometry], T]) -> T:
        """A value made of `seen_region` alone (its outline as drawn), remembered with that sight: every
        viewer whose tokens see the same gets the same, and a push that moved none of a viewer's tokens
        does not make it again. Only asked where vision applies."""
        return vision.of_sight(scene, self._seeing(scene), what, build)

    def doors_seen(self, scene: Scene) -> list[Wall]:
        """The scene's doors whose middles this viewer sees now (clear of fog), remembered with the walls
        and the fog for where the viewer's tokens stand."""
        doors = kept(scene, "_doors", (scene.walls,), lambda: [w for w in scene.walls if w.kind == "door"])
        if not doors or not self.vision(scene):
            return self._doors_seen(scene, doors)
        table = kept(scene, "_doors_seen", (scene.walls, scene.fog), dict)
        key = (vision.standing(self._seeing(scene)), self.scene(scene))
        if key not in table:
            table[key] = self._doors_seen(scene, doors)
        found: list[Wall] = table[key]
        return found

    def _doors_seen(self, scene: Scene, doors: list[Wall]) -> list[Wall]:
        seen = self.points(scene, [w.midpoint for w in doors]) if doors else []
        return [w for w, s in zip(doors, seen, strict=True) if s]

    def explored(self, scene: Scene) -> shapely.Geometry | None:
        """The only part of the scene's image this viewer may hold: what their characters have explored
        (the party's when it shares, every player character's for a viewer with none), less the GM's fog.
        What they see now is in it: each change of sight is recorded in the state as it happens
        (app/rules/map/explored.py). None when no vision applies (the image is the fog-blanked one)."""
        if not self.vision(scene):
            return None
        if not self.scene(scene):
            return shapely.Polygon()
        return explored_area(self.state.map, scene, self.explorers)

    @property
    def explorers(self) -> frozenset[str]:
        """Whose explored areas this viewer's image holds: their sight's characters', or with the party
        sharing, every player character's (a hidden one's only for its owner)."""
        if not self.state.map.share_explored:
            return self.sighted
        hidden = {p.id for p in self.state.participants if p.hidden} - self.viewer.participants
        return frozenset(party(self.state) - hidden)

    def _in_sight(self, scene: Scene, points: list[Point]) -> list[bool]:
        """Which spots the viewer's characters see now (as `seen_region` holds them), each spot remembered
        with the sight it was asked of."""
        if not self.vision(scene) or not points:
            return [True] * len(points)
        if not self.scene(scene):
            return [False] * len(points)
        return vision.points_seen(scene, self._seeing(scene), points)

    # -- scenes and spots --------------------------------------------------------------------------

    def scene(self, scene: Scene | None) -> bool:
        """Whether anything of this scene may reach the viewer: the GM's every scene, else the shown one."""
        if scene is None:
            return False
        return self.everything or (self.shown is not None and scene.id == self.shown.id)

    def points(self, scene: Scene, points: list[Point]) -> list[bool]:
        """Which of these spots of a scene the viewer sees (on it, in its bounds, clear of fog)."""
        if self.everything:
            return [True] * len(points)
        if not self.scene(scene):
            return [False] * len(points)
        inside = [0 <= x <= scene.width and 0 <= y <= scene.height for x, y in points]
        fogged = scene_fogged(scene, points)
        seen = self._in_sight(scene, points)
        return [i and not f and s for i, f, s in zip(inside, fogged, seen, strict=True)]

    def point(self, x: float, y: float) -> bool:
        """A spot of the scene this viewer looks at (the shown one for players): a ping, a ruler's end."""
        if self.everything:
            return True
        return self.shown is not None and self.points(self.shown, [(x, y)])[0]

    # -- what is on a scene ------------------------------------------------------------------------

    def own(self, token: Token) -> bool:
        return token.participant is not None and token.participant in self.viewer.participants

    def tokens(self, scene: Scene, tokens: Iterable[Token] | None = None) -> list[Token]:
        """The scene's tokens (or these of them) the viewer sees: their own on a scene they are shown, and
        the others neither hidden (a marker's flag, or its character's) nor under fog. One fog test."""
        listed = [t for t in (tokens if tokens is not None else self.state.map.tokens) if t.scene == scene.id]
        if self.everything:
            return listed
        if not self.scene(scene):
            return []
        people = self.seen.by_id("participants")
        open_ = [t for t in listed if self.own(t) or not _hidden(t, people)]
        fogged = scene_fogged(scene, [(t.x, t.y) for t in open_])
        # Sight is asked of the others alone (a viewer's own tokens are always theirs to see).
        seen = iter(self._in_sight(scene, [(t.x, t.y) for t in open_ if not self.own(t)]))
        return [
            t for t, under in zip(open_, fogged, strict=True) if self.own(t) or (next(seen) and not under)
        ]

    def token(self, token: Token) -> bool:
        """Whether `tokens` keeps this token: asked of every player's sight for every move (who sees it)."""
        scene = self.state.map.scene(token.scene)
        if scene is None or not self.scene(scene):
            return False
        if self.everything or self.own(token):
            return True
        if _hidden(token, self.seen.by_id("participants")):
            return False
        spot = [(token.x, token.y)]
        return not scene_fogged(scene, spot)[0] and self._in_sight(scene, spot)[0]

    def drawings(self, scene: Scene) -> list[Drawing]:
        """The GM sees every drawing; a player those of a scene they are shown with no point under fog."""
        if self.everything:
            return list(scene.drawings)
        if not self.scene(scene) or not scene.drawings:
            return []
        shown = drawings_in_the_open(scene)
        if not self.vision(scene):
            return list(shown)
        return [d for d in shown if all(self._in_sight(scene, list(d.points)))]

    def drawing(self, scene: Scene, drawing: Drawing) -> bool:
        """One drawing, on the scene or about to be: no point of it under fog."""
        if self.everything:
            return True
        points = list(drawing.points)
        return (
            self.scene(scene) and not any(scene_fogged(scene, points)) and all(self._in_sight(scene, points))
        )

    # -- the image ---------------------------------------------------------------------------------

    def blanked(self, scene: Scene) -> tuple[FogOp, ...] | None:
        """What the image this viewer is sent has blanked (fog strokes, read as `fogged` reads them), or
        None when they get no fog-blanked image of this scene at all: a scene they are not shown, or one
        with vision (their image is masked to `explored` instead). The GM's is whole: ()."""
        if self.everything:
            return ()
        return scene.fog if self.scene(scene) and not scene.vision else None


def _hidden(token: Token, people: dict[str, Participant]) -> bool:
    """A marker's own flag; a character's token is hidden with its character (one flag), or when this
    viewer cannot see the character at all."""
    if token.participant is None:
        return token.hidden
    p = people.get(token.participant)
    return p is None or p.hidden


def party(state: CampaignState) -> frozenset[str]:
    """Every player character (NPCs give the players no sight). Kept with the participants it is made of:
    every move asks it of each player's sight."""
    people = state.participants
    return kept(state, "_party", (people,), lambda: frozenset(p.id for p in people if p.kind == "pc"))


def sighted(state: CampaignState, viewer: Viewer) -> frozenset[str]:
    """The characters whose sight a viewer gets (see `Sight.sighted`)."""
    pcs = party(state)
    if viewer.participants:
        return pcs & viewer.participants
    hidden = {p.id for p in state.participants if p.hidden}
    return frozenset(pcs - hidden)


def explored_area(m: MapState, scene: Scene, pcs: frozenset[str]) -> shapely.Geometry:
    """The union of these characters' explored areas of a scene, less the GM's fog, within the scene (in
    whole pixels); remembered with the map state (`explored_entry`)."""
    return explored_entry(m, scene, pcs).area


class ExploredEntry:
    """An explored area as the map state keeps it: what it was made of (the scene and the characters'
    `Explored` records, by identity), the area, and what is made of it (`kept`: a viewer's tiles,
    app/rules/map/tiles.py). Equal only to itself, like `frozen.Memo`."""

    __slots__ = ("area", "basis", "kept")

    def __init__(self, basis: tuple[object, ...], area: shapely.Geometry, kept: dict[str, Any]):
        self.basis, self.area, self.kept = basis, area, kept


def explored_entry(m: MapState, scene: Scene, pcs: frozenset[str]) -> ExploredEntry:
    """`explored_area`'s entry, kept in a table on the map state (shared by its copies) by scene and
    characters, and made afresh only when the scene or one of these characters' records of it changed:
    a move that grows one player's explored area leaves every other viewer's entry, and what it holds,
    as it was. A new entry takes over its predecessor's `kept` clips and halves (what tiles.py reuses)."""
    table = kept_table(m, _EXPLORED_MEMO)
    parts = tuple(e for e in m.explored if e.scene == scene.id and e.participant in pcs)
    basis = (scene, *parts)
    key = (scene.id, pcs)
    hit = table.get(key)
    if hit is not None and len(hit.basis) == len(basis) and all(map(is_, hit.basis, basis)):
        return hit  # type: ignore[no-any-return]  # what this function stored
    shapes = [e.shape for e in parts]
    area = shapes[0] if len(shapes) == 1 else shapely.union_all(shapes) if shapes else shapely.Polygon()
    if scene.fog:
        area = shapely.difference(area, vision.fog_area(scene))
    area = shapely.intersection(area, shapely.box(0, 0, scene.width, scene.height))
    carried = {k: hit.kept[k] for k in CARRIED if k in hit.kept} if hit is not None else {}
    entry = table[key] = ExploredEntry(basis, area, carried)
    return entry


_EXPLORED_MEMO = "_explored_areas"  # a key of the map state's __dict__ that is no field
CARRIED = ("clips", "nodes", "keys")  # what an entry's tiles leave its successor (map/tiles.py)


def sight(state: CampaignState, viewer: Viewer, seen: CampaignState | None = None) -> Sight:
    return Sight(state, viewer, seen)
