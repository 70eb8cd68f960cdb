"""One answer to "what may this viewer see of the map": a `Sight`, asked by every channel.

Views (tokens, drawings), event audiences and the players' reading of events, refusals (a token a player
cannot see is no token), pings, rulers and drag ghosts, and the image a player is sent all call this one
class, so a new rule of sight (walls and light) changes it alone. Today a player's sight is the shown
scene, less the GM's fog, less what is hidden; every player sees the same map, so `key` is the same for
all of them and one masked image serves them all. The GM sees everything.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.rules.campaign.state import CampaignState, Participant
from app.rules.map.geometry import drawings_in_the_open, scene_fogged
from app.rules.map.state import Drawing, FogOp, Point, Scene, Token
from app.rules.system import Viewer

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
        """Viewers with the same key see the same map (today: the GM, and everyone else)."""
        return "gm" if self.everything else "players"

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
        return [i and not f for i, f in zip(inside, fogged, strict=True)]

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
        people = {p.id: p for p in self.seen.participants}
        open_ = [t for t in listed if self.own(t) or not _hidden(t, people)]
        fogged = scene_fogged(scene, [(t.x, t.y) for t in open_])
        return [t for t, under in zip(open_, fogged, strict=True) if self.own(t) or not under]

    def token(self, token: Token) -> bool:
        scene = self.state.map.scene(token.scene)
        return scene is not None and bool(self.tokens(scene, [token]))

    def drawings(self, scene: Scene) -> list[Drawing]:
        """The GM sees every drawing; a player those of a scene they are shown with no point under fog."""
        if self.everything:
            return list(scene.drawings)
        if not self.scene(scene) or not scene.drawings:
            return []
        return list(drawings_in_the_open(scene))

    def drawing(self, scene: Scene, drawing: Drawing) -> bool:
        """One drawing, on the scene or about to be: no point of it under fog."""
        if self.everything:
            return True
        return self.scene(scene) and not any(scene_fogged(scene, list(drawing.points)))

    # -- the image ---------------------------------------------------------------------------------

    def blanked(self, scene: Scene) -> tuple[FogOp, ...] | None:
        """What the image this viewer is sent has blanked (fog strokes, read as `fogged` reads them), or
        None when they get no image of this scene at all. The GM's is whole: ()."""
        if self.everything:
            return ()
        return scene.fog if self.scene(scene) else None

    def explored(self, scene: Scene) -> object | None:
        """STUB for branch uvtt (the vision branch's method replaces it): None, no vision applies."""
        return None


def _hidden(token: Token, people: dict[str, Participant]) -> bool:
    """A marker's own flag; a character's token is hidden with its character (one flag), or when this
    viewer cannot see the character at all."""
    if token.participant is None:
        return token.hidden
    p = people.get(token.participant)
    return p is None or p.hidden


def sight(state: CampaignState, viewer: Viewer, seen: CampaignState | None = None) -> Sight:
    return Sight(state, viewer, seen)
