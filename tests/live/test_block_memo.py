"""Each distinct live block is rendered once: shared renders are exactly what a fresh render gives."""

from __future__ import annotations

import pytest

from app import demo
from app.realtime import render
from app.realtime.blocks import BlockMemo, Fingerprints
from app.realtime.broker import MemoryBroker
from app.rules import registry
from app.rules.system import Viewer
from app.services import commands
from app.services.auth import SeatAuth
from app.services.context import Fray
from app.store import log
from app.store.db import Database
from app.store.states import StateCache


@pytest.fixture
def fray(settings):
    db = Database(settings.database_url)
    fray = Fray(settings=settings, db=db, broker=MemoryBroker(), states=StateCache())
    yield fray
    fray.db.dispose()


def _views(state):
    gm = state.seats[0]
    players = [s for s in state.seats if s.role == "player"]
    yield "gm", state.viewer_for(gm.id, "gm")
    for seat in players:
        yield "player", state.viewer_for(seat.id, "player")
    yield "table", Viewer(role="spectator")


def _check_every_view(fray, key, campaign_id, memo):
    game = registry.game(key)
    with fray.db.read() as session:
        state = fray.states.current(session, game, campaign_id)
        recent = log.recent(session, campaign_id, 40)
    described: dict = {}  # one push: every view's log worded from the same events
    for page, viewer in _views(state):
        context = render.page_context(game, state, viewer, recent, page, described)
        assert context["log"] == render.page_context(game, state, viewer, recent, page)["log"]
        if page == "player":  # shared among the phones who see alike, and exactly this phone's own
            assert context["people"] == render.people(context["v"])
        fresh = render.render_live(page, context)
        # Through the memo as a push draws (each view compared first with its own last render), and as
        # a first render of a view it never met: both are exactly the fresh render.
        assert render.render_live(page, context, memo, (page, "html", viewer.key)) == fresh
        assert render.render_live(page, context, memo) == fresh
        assert render.log_items(context, memo) == render.log_items(context)


@pytest.mark.parametrize("key", sorted(k for k, s in registry.systems().items() if s.demo))
def test_shared_block_renders_equal_fresh_renders_for_every_view_before_and_after_commands(fray, key):
    made = demo.create_demo(fray, key, "http://test")
    campaign_id = made.gm_link.split("/c/")[1].split("/")[0]
    memo = BlockMemo()
    _check_every_view(fray, key, campaign_id, memo)
    first = memo.renders
    gm = SeatAuth(fray_gm(fray, key, campaign_id), campaign_id, "gm", "GM", key)
    commands.execute(fray, gm, {"type": "generic.roll", "expression": "2d6", "label": "a check"})
    commands.execute(fray, gm, {"type": "generic.pool.create", "name": "Doom", "value": 2})
    _check_every_view(fray, key, campaign_id, memo)
    # A push redraws only the blocks whose inputs moved: far fewer renders than the first time.
    assert memo.renders - first < first


def fray_gm(fray, key, campaign_id) -> str:
    with fray.db.read() as session:
        state = fray.states.current(session, registry.game(key), campaign_id)
    return state.seats[0].id


def test_a_block_reading_a_view_key_is_drawn_again_when_that_key_changes_and_not_otherwise():
    memo = BlockMemo()
    context = {"v": {"pools": [1], "log": []}, "log": [], "system": "generic", "page": "player"}
    calls = []
    block = (render.ENV, "pages/player.html", "pools")

    def draw(ctx):
        calls.append(1)
        return f"pools={ctx['v']['pools']}"

    prints = Fingerprints(context)
    assert memo.render(*block, prints, draw) == "pools=[1]"
    other = {**context, "v": {"pools": [1], "log": ["new"]}}  # a key the block never read changed
    assert memo.render(*block, Fingerprints(other), draw) == "pools=[1]"
    moved = {**context, "v": {"pools": [2], "log": []}}
    assert memo.render(*block, Fingerprints(moved), draw) == "pools=[2]"
    assert len(calls) == 2


def test_a_change_elsewhere_at_the_table_draws_no_phone_its_own_block_again(client):
    """Issue 14: each phone's own block (its characters, tracks and pools) reads only what is that phone's,
    so a table pool changing draws a handful of shared blocks, not one block per phone; a phone's own
    pool changing draws that phone's block, and the others are left as they were."""
    from tests.helpers import Table

    table = Table.create(client, dice="server")
    phones = [table.join(f"P{n}") for n in range(6)]
    heroes = [table.character(f"Hero{n}", owner=seat) for n, seat in enumerate(phones)]
    table.ok(table.gm, "generic.pool.create", name="Doom", value=3)
    table.ok(table.gm, "generic.pool.create", name="Luck", value=2, owner=heroes[0])
    fray = client.app.state.fray
    game = registry.game("generic")
    memo = BlockMemo()

    def push() -> dict[str, str]:
        with fray.db.read() as session:
            state = fray.states.current(session, game, table.id)
            recent = log.recent(session, table.id, 40)
        described: dict = {}
        mine = {}
        for seat in phones:
            viewer = state.viewer_for(seat.seat_id, "player")
            context = render.page_context(game, state, viewer, recent, "player", described)
            blocks = render.render_live("player", context, memo, ("player", "html", viewer.key))
            assert blocks == render.render_live("player", context)  # shared renders are fresh renders
            mine[seat.seat_id] = blocks["mine"]
        return mine

    before = push()
    pools = {p["name"]: p["id"] for p in table.view(table.gm)["pools"]}
    renders = memo.renders
    table.ok(table.gm, "generic.pool.adjust", pool=pools["Doom"], delta=-1)
    assert push() == before
    assert memo.renders - renders < len(phones)  # the shared blocks, once: not one per phone
    table.ok(table.gm, "generic.pool.adjust", pool=pools["Luck"], delta=1)
    after = push()
    assert after[phones[0].seat_id] != before[phones[0].seat_id]
    assert all(after[s.seat_id] == before[s.seat_id] for s in phones[1:])


def test_a_viewers_unchanged_block_is_its_last_render_and_a_changed_one_is_drawn_again():
    """A push compares what each of a viewer's blocks reads with what it read for that viewer last time:
    equal inputs (new objects, same content) give the last render without fingerprinting; a changed
    input draws it again, and that viewer then compares with the new inputs."""
    memo = BlockMemo()
    calls = []
    block = (render.ENV, "pages/player.html", "pools")

    def draw(ctx):
        calls.append(1)
        return f"pools={ctx['v']['pools']}"

    def context(pools, log=()):
        return {"v": {"pools": [dict(p) for p in pools], "log": list(log)}, "system": "generic", "seq": 1}

    first = context([{"name": "Gold", "value": 1}])
    assert (
        memo.render(*block, memo.prints(first), draw, viewer=("a",)) == "pools=[{'name': 'Gold', 'value': 1}]"
    )
    again = context([{"name": "Gold", "value": 1}], log=["a roll"])  # equal pools, a new list
    assert (
        memo.render(*block, memo.prints(again), draw, viewer=("a",)) == "pools=[{'name': 'Gold', 'value': 1}]"
    )
    assert (len(calls), memo.reused) == (1, 1)
    moved = context([{"name": "Gold", "value": 2}])
    assert (
        memo.render(*block, memo.prints(moved), draw, viewer=("a",)) == "pools=[{'name': 'Gold', 'value': 2}]"
    )
    assert (len(calls), memo.reused) == (2, 1)
    back = context([{"name": "Gold", "value": 1}])  # another viewer's render of these inputs is shared
    assert (
        memo.render(*block, memo.prints(back), draw, viewer=("b",)) == "pools=[{'name': 'Gold', 'value': 1}]"
    )
    assert (
        memo.render(*block, memo.prints(back), draw, viewer=("a",)) == "pools=[{'name': 'Gold', 'value': 1}]"
    )
    assert len(calls) == 2


def test_every_phone_of_a_push_shares_one_list_of_the_others_and_it_is_each_phones_own(client):
    """The phones' "others" card reads `people`: one list per state for every player who sees the table
    alike (compared by identity, not element by element per phone), equal to what each phone's own
    view gives; a change to the characters or tracks makes a new one."""
    from tests.helpers import Table

    table = Table.create(client, dice="server")
    phones = [table.join(f"P{n}") for n in range(4)]
    for n, seat in enumerate(phones):
        table.character(f"Hero{n}", owner=seat)
    table.ok(table.gm, "generic.track.create", name="Wounds", total=3)
    fray = client.app.state.fray
    game = registry.game("generic")

    kept: dict = {}  # a room's, kept from push to push

    def lists():
        with fray.db.read() as session:
            state = fray.states.current(session, game, table.id)
            recent = log.recent(session, table.id, 40)
        out = []
        for seat in phones:
            viewer = state.viewer_for(seat.seat_id, "player")
            context = render.page_context(game, state, viewer, recent, "player", {}, people_kept=kept)
            assert context["people"] == render.people(context["v"])
            out.append(context["people"])
        return out

    first = lists()
    assert all(people is first[0] for people in first)
    table.ok(table.gm, "generic.roll", expression="1d6")  # neither characters nor tracks change
    assert lists()[0] is first[0]
    table.ok(table.gm, "campaign.add_participant", name="Ogre", kind="npc")
    changed = lists()
    assert changed[0] is not first[0] and [p["name"] for p in changed[0]][-1] == "Ogre"


def test_viewers_with_the_same_key_see_the_same_view_so_a_push_may_share_it(client):
    """A push renders one view per viewer key for every socket of that key. Two players with no character
    yet are still two seats: each phone's welcome says its own name, so their keys differ."""
    from tests.helpers import Table

    table = Table.create(client, dice="server")
    ana, bo = table.join("Ana"), table.join("Bo")
    fray = client.app.state.fray
    game = registry.game("generic")
    with fray.db.read() as session:
        state = fray.states.current(session, game, table.id)
    viewers = [state.viewer_for(seat.seat_id, "player") for seat in (ana, bo)]
    views = [game.view(state, viewer) for viewer in viewers]
    assert [v["me"]["name"] for v in views] == ["Ana", "Bo"]
    assert viewers[0].key != viewers[1].key
    again = state.viewer_for(ana.seat_id, "player")  # the same seat in a second tab shares its render
    assert again.key == viewers[0].key and game.view(state, again) == views[0]


def test_a_viewer_keeps_only_its_last_context_however_many_pushes_it_had():
    """Each push compares a viewer's context with its last one: the one before that, and the pushes
    before it, are let go (a room of 200 phones would otherwise keep its whole history in memory)."""
    import weakref

    memo = BlockMemo()
    block = (render.ENV, "pages/player.html", "pools")

    def draw(ctx):
        return f"pools={ctx['v']['pools']}"

    def push(value: int) -> Fingerprints:
        context = {"v": {"pools": [{"name": "Gold", "value": value}]}, "system": "generic", "seq": value}
        prints = memo.prints(context)
        memo.view_started(("a",), prints)
        assert (
            memo.render(*block, prints, draw, viewer=("a",))
            == f"pools=[{{'name': 'Gold', 'value': {value}}}]"
        )
        memo.view_finished(("a",), prints)
        return prints

    first = weakref.ref(push(1))
    second = weakref.ref(push(2))
    for value in range(3, 8):
        push(value)
    assert first() is None and second() is None


def test_a_block_a_push_decided_to_draw_is_drawn_and_what_it_read_is_learned_without_fingerprints():
    """`BlockMemo.drawn`: a push draws the block (no earlier render is looked for), and every key it read
    joins what the block ever read (`reads_ever`, which decides later pushes); a draw that read beyond its
    part of the view (`NotInView`) learns nothing."""
    from app.realtime.tracked import NotInView, PartView

    memo = BlockMemo()
    slot = ("pages/player.html", "pools")

    def draw(ctx):
        return f"pools={ctx['v']['pools']}"

    context = {"v": PartView({"pools": [1]}), "page": "player"}
    assert memo.drawn(*slot, context, draw) == "pools=[1]"
    assert memo.drawn(*slot, context, draw) == "pools=[1]"
    assert memo.renders == 2 and memo.reads_ever[slot] == {"pools"} and memo.reads_version == 1

    def reads_more(ctx):
        return f"{ctx['v']['pools']} {ctx['v']['tracks']}"

    with pytest.raises(NotInView):
        memo.drawn(*slot, context, reads_more)
    assert memo.reads_ever[slot] == {"pools"} and memo.reads_version == 1
    wider = {"v": PartView({"pools": [1], "tracks": []}), "page": "player"}
    assert memo.drawn(*slot, wider, reads_more) == "[1] []"
    assert memo.reads_ever[slot] == {"pools", "tracks"} and memo.reads_version == 2
