"""Rendering pages and their live blocks from a viewer's view (never from raw state).

One template per page (`pages/<page>.html`) with named blocks; each live block's root element has a
stable id, so the same block renders the full page, an HTMX reply and a WebSocket push (hx-swap-oob).
A game system adds `systems/<key>/<page>.html`, included by the page; its top-level blocks are live too.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from operator import is_
from typing import Any

from jinja2 import TemplateNotFound
from jinja2_fragments import render_block
from markupsafe import Markup

from app.realtime.blocks import BlockMemo
from app.realtime.digests import ByIdentity
from app.realtime.environment import make_env
from app.realtime.log import PublicLog, log_entries
from app.realtime.own import own_of, own_sheets, people, places_in, shared_people
from app.realtime.rows import every_pool, log_entry, pool_row, table_pools
from app.realtime.sources import mentions, names_read
from app.realtime.tracked import PartView
from app.resources import ROOT
from app.rules.campaign.state import CampaignState
from app.rules.game import Game
from app.rules.system import Event, Viewer

PAGES = ("gm", "player", "table")
# The blocks of each page that change with the game; each renders one element with a stable id.
LIVE_BLOCKS: dict[str, tuple[str, ...]] = {
    "gm": (
        "map",
        "status",
        "participants",
        "pools",
        "tracks",
        "initiative",
        "prompts",
        "rolls",
        "log",
        "encounters",
        "seats",
        "undo",
        "rulings",
    ),
    "player": ("map", "status", "mine", "prompts", "rolls", "pools", "tracks", "initiative", "log"),
    "table": ("map", "status", "initiative", "participants", "pools", "tracks", "log"),
}
# Live blocks morph into the page (idiomorph, static/js/fray.js): open details, focus, the caret, typed
# values and scroll positions survive a push.
OOB = Markup(' hx-swap-oob="morph"')


ENV = make_env()
LOG_LINES_KEPT = 4096


# Each entry's line by the entry's identity: the line, and the same line as a plain str (one object push
# after push, so a page's lines compare by identity).
_lines_by_entry: dict[tuple[int, bool], tuple[dict[str, Any], Markup, str]] = {}


def log_line(entry: dict[str, Any], show_by: bool = True) -> Markup:
    """One line of the log as drawn. A line never changes once written (an undo is a new line and a
    changed flag), so each is drawn once per process and a push draws only the new one. The log's
    entries are shared dicts (`log.log_entries`), found here by identity."""
    mine = _lines_by_entry.get((id(entry), show_by))
    if mine is not None and mine[0] is entry:
        return mine[1]
    return _drawn_line(entry, show_by)[1]


def _drawn_line(entry: dict[str, Any], show_by: bool) -> tuple[dict[str, Any], Markup, str]:
    # Drawn in Python (app/realtime/rows.py): drawing is cheaper than a digest of the entry would be.
    line = log_entry(entry, show_by)
    if len(_lines_by_entry) >= LOG_LINES_KEPT:
        _lines_by_entry.clear()
    # The entry kept alive: its id stays its own.
    drawn = _lines_by_entry[(id(entry), show_by)] = (entry, line, str(line))
    return drawn


def log_lines(entries: list[dict[str, Any]], show_by: bool = True) -> Markup:
    """The log's lines, joined: each drawn once (`log_line`), the list in one join rather than a
    template loop that calls and escapes forty times a push."""
    return Markup("\n".join([log_line(e, show_by) for e in entries]))


ENV.globals["log_line"] = log_line  # before the macros below are loaded: they see the globals of then
ENV.globals["log_lines"] = log_lines
ENV.globals["pool_row"] = pool_row
ENV.globals["table_pools"] = table_pools
ENV.globals["every_pool"] = every_pool

# The UI macros, importable from every block (blocks render alone, without the page's imports).
ENV.globals["ui"] = ENV.get_template("partials/ui.html").module
ENV.globals["wallui"] = ENV.get_template("partials/walls.html").module  # before the map: it draws walls
ENV.globals["mapui"] = ENV.get_template("partials/map.html").module


# Live blocks drawn in Python: each template's block calls the same function, so a page and a push draw
# the same text, and a push calls it without Jinja's context and block machinery (a pools card's draw,
# docs/performance.md). As plain text: a block's text is cut and joined as a str, never escaped again.
# A key the view lacks reads as nothing, as a template's `v.pools` would.
IN_PYTHON: dict[tuple[str, str], Callable[[dict[str, Any]], str]] = {
    ("pages/player.html", "pools"): lambda ctx: str(table_pools(ctx["v"].get("pools") or (), ctx["oob"])),
    ("pages/gm.html", "pools"): lambda ctx: str(every_pool(ctx["v"].get("pools") or (), ctx["oob"])),
}


def block_drawer(template: str, block: str) -> Callable[[dict[str, Any]], str]:
    """What draws a live block from its context: its Python, or its template's block."""
    found = IN_PYTHON.get((template, block))
    return found if found is not None else partial(render_block, ENV, template, block)


@cache
def system_assets(system: str) -> dict[str, str | None]:
    """A system's own stylesheet and script, when it has them (static/{css,js}/systems/<key>.{css,js})."""
    css = ROOT / "static" / "css" / "systems" / f"{system}.css"
    js = ROOT / "static" / "js" / "systems" / f"{system}.js"
    return {
        "css": f"/static/css/systems/{system}.css" if css.exists() else None,
        "js": f"/static/js/systems/{system}.js" if js.exists() else None,
    }


@cache
def system_template(system: str, page: str) -> str | None:
    name = f"systems/{system}/{page}.html"
    try:
        ENV.get_template(name)
    except TemplateNotFound:
        return None
    return name


@cache
def system_board(system: str) -> str | None:
    """A system's own board for the pages' map area (`systems/<key>/_board.html`, macro `frame`)."""
    return system_template(system, "_board")


@cache
def system_replay(system: str) -> str | None:
    """A system's board for a replay step when its board is not in the map area (`_replay.html`, macro
    `board`); without one the replay draws the map area's board (`_board.html`) or nothing."""
    return system_template(system, "_replay")


@cache
def system_blocks(system: str, page: str) -> tuple[str, ...]:
    name = system_template(system, page)
    return tuple(ENV.get_template(name).blocks) if name else ()


def page_template(page: str) -> str:
    return f"pages/{page}.html"


def render_page(page: str, context: dict[str, Any]) -> str:
    ctx = {
        **context,
        "oob": Markup(""),
        "system_template": system_template(context["system"], page),
        "board_template": system_board(context["system"]),
        "system_assets": system_assets(context["system"]),
    }
    return ENV.get_template(page_template(page)).render(ctx)


def system_tool(system: str, tool: str) -> str | None:
    """A system's own GM tool page (a map editor, a card editor): `systems/<key>/tools/<tool>.html`."""
    return system_template(system, f"tools/{tool}")


def render_tool(name: str, context: dict[str, Any]) -> str:
    ctx = {**context, "oob": Markup(""), "system_assets": system_assets(context["system"])}
    return ENV.get_template(name).render(ctx)


def render_template(name: str, context: dict[str, Any]) -> str:
    return ENV.get_template(name).render(context)


def live_context(page: str, context: dict[str, Any]) -> dict[str, Any]:
    """A page's context as its live blocks read it: each marked for an out-of-band swap."""
    return {
        **context,
        "oob": OOB,
        "system_template": system_template(context["system"], page),
        "board_template": system_board(context["system"]),
    }


@cache
def live_slots(
    page: str, system: str, leave_out: frozenset[str] = frozenset()
) -> tuple[tuple[str, str, str], ...]:
    """Each live block of a page as (template, block, name in the page), in the page's order."""
    slots = [(page_template(page), name, name) for name in LIVE_BLOCKS[page] if name not in leave_out]
    slots += [
        (str(system_template(system, page)), name, f"system:{name}")
        for name in system_blocks(system, page)
        if f"system:{name}" not in leave_out
    ]
    return tuple(slots)


def render_live(
    page: str,
    context: dict[str, Any],
    memo: BlockMemo | None = None,
    viewer: tuple | None = None,
    leave_out: frozenset[str] = frozenset(),
) -> dict[str, str]:
    """Every live block of a page (but those left out: a system's are named `system:<block>`), each
    marked for an out-of-band swap.

    With a memo, a block whose inputs match an earlier render (another view's, or this view's before a
    push that did not touch it) is not rendered again. `viewer` (the view's key) lets a block compare
    its inputs with that viewer's last render first, the cheapest way to find it unchanged.
    """
    ctx = live_context(page, context)
    slots = live_slots(page, context["system"], leave_out)
    if memo is None:
        return {out: block_drawer(template, name)(ctx) for template, name, out in slots}
    prints = memo.prints(ctx)
    if viewer is not None:
        memo.view_started(viewer, prints)
    found = memo.unchanged_blocks(viewer, prints, slots) if viewer is not None else {}
    blocks = {
        out: found[out]
        if out in found
        else memo.render(ENV, template, name, prints, block_drawer(template, name), viewer)
        for template, name, out in slots
    }
    if viewer is not None:
        memo.view_finished(viewer, prints)
    return blocks


def warm(systems: list[str]) -> None:
    """Read every live block's sources once at start-up, so no push pays for parsing templates."""
    for page in PAGES:
        ENV.get_template(page_template(page))  # compiled now, not in the first push after a start
        for name in LIVE_BLOCKS[page]:
            names_read(ENV, page_template(page), name)
        if mentions(ENV, page_template(page), LOG) != LOG_MENTIONS:
            raise RuntimeError(f"{page_template(page)}'s log block must draw `ui.log_list(log)` alone")
        for system in systems:
            template = system_template(system, page)
            for name in system_blocks(system, page):
                names_read(ENV, template, name)


# Every page's log block is `ui.log_list(log)`: the lines `log_items` draws, in a list. Two logs with the
# same lines are the same block, so a push compares lines, sends the new ones as an append, and draws
# the whole block (a list of forty lines of dice, the costliest block of a push) only for a page that is
# behind or whose older lines changed. `warm` checks that each page's log block reads nothing else.
LOG = "log"
LOG_ONLY = frozenset({LOG})
LOG_MENTIONS = frozenset({"log", "oob", "ui"})


def log_block(
    page: str, context: dict[str, Any], memo: BlockMemo | None = None, viewer: tuple | None = None
) -> str:
    """The page's whole live log block, and no other."""
    others = {f"system:{name}" for name in system_blocks(context["system"], page)}
    return render_live(page, context, memo, viewer, frozenset(LIVE_BLOCKS[page]) - LOG_ONLY | others)[LOG]


def in_page_order(page: str, blocks: dict[str, str], log: str | None) -> list[str]:
    """Blocks (all of `render_live`'s, or the changed ones) in its order, with the log's in its place."""
    if log is None:
        return list(blocks.values())
    if not blocks:
        return [log]
    before = _BEFORE_LOG[page]
    return [
        *(html for name, html in blocks.items() if name in before),
        log,
        *(html for name, html in blocks.items() if name not in before),
    ]


_BEFORE_LOG = {page: frozenset(names[: names.index(LOG)]) for page, names in LIVE_BLOCKS.items()}


def log_items(context: dict[str, Any], memo: BlockMemo | None = None) -> list[str]:
    """Each line of the live log as the page draws it, newest first."""

    draw = partial(log_lines_of, context["log"])
    return memo.lines(memo.prints(context), draw) if memo is not None else draw()


def log_lines_of(entries: list[dict[str, Any]], before: PublicLog | None = None) -> list[str]:
    """Each entry's line as a str, the very object of the last push for an entry drawn before: a push
    looks forty entries up by identity, and compares the lines it sends with those a page holds by
    identity too (`Push.log_append`). When the entries are the last push's public log's (`before`) with
    new ones on top, only the new ones are looked up."""
    fresh = _new_on_top(entries, before)
    kept, lines = _lines_by_entry, []
    for entry in entries if fresh is None else entries[:fresh]:
        mine = kept.get((id(entry), True))
        lines.append(mine[2] if mine is not None and mine[0] is entry else _drawn_line(entry, True)[2])
    if fresh is not None and before is not None and before.lines is not None:
        lines += before.lines[: len(entries) - fresh]
    return lines


def _new_on_top(entries: list[dict[str, Any]], before: PublicLog | None) -> int | None:
    """How many entries are new on top of the last push's public log, whose lines are drawn; None when the
    rest are not its entries, the very objects, in its order."""
    if before is None or before.lines is None or len(before.lines) != len(before.entries):
        return None
    older = before.entries
    fresh = 0
    while fresh < len(entries) and (not older or entries[fresh] is not older[0]):
        fresh += 1
    rest = len(entries) - fresh
    if rest > len(older) or not all(map(is_, entries[fresh:], older[:rest])):
        return None
    return fresh


def log_append(old: list[str], new: list[str]) -> str | None:
    """New log lines as an append on top of what the page shows, when nothing else in the log changed.

    The log is most of a push (forty lines of dice); a table that rolls sends one new line instead.
    None when an older line changed (an undo strikes one through): then the whole block goes.
    """
    if not old or not new or new[0] == old[0]:
        return None
    try:
        fresh = new.index(old[0])
    except ValueError:
        return None
    if new[fresh:] != old[: len(new) - fresh]:
        return None
    return f'<ol hx-swap-oob="afterbegin:#log-list">{"".join(new[:fresh])}</ol>'


def pages_view(view: dict[str, Any]) -> dict[str, Any]:
    """A view as the pages read it: the campaign's `seq` left out of `v.campaign` (a page reads `seq`
    itself). It moves with every push, and a block that read the campaign's name would otherwise be
    worked out again for every viewer of every push (app/realtime/blocks.py compares the keys read)."""
    campaign = view.get("campaign")
    if not isinstance(campaign, dict) or "seq" not in campaign:
        return view
    return {**view, "campaign": _PAGES_CAMPAIGNS.get(campaign, _without_seq)}


_PAGES_CAMPAIGNS = ByIdentity(64)  # by the view's campaign: one dict for every view of a state


_CAMPAIGNS: dict[tuple[Any, ...], tuple[tuple[Any, ...], dict[str, Any]]] = {}
CAMPAIGNS_KEPT = 1024
_PLAIN = (str, int, float, bool, type(None))


def _without_seq(campaign: dict[str, Any]) -> dict[str, Any]:
    """The campaign as the pages read it, one dict for every view that reads the same (its settings, a
    dict, by identity: a state keeps them while they do not change), so every viewer of every push
    compares and digests one object. Each entry holds what it names by id, so the ids stay theirs."""
    items = [(k, v) for k, v in campaign.items() if k != "seq"]
    key = tuple((k, type(v), v if isinstance(v, _PLAIN) else id(v)) for k, v in items)
    hit = _CAMPAIGNS.get(key)
    if hit is None:
        if len(_CAMPAIGNS) >= CAMPAIGNS_KEPT:
            _CAMPAIGNS.clear()
        hit = _CAMPAIGNS[key] = (tuple(v for _, v in items), dict(items))
    return hit[1]


def page_context(
    game: Game,
    state: CampaignState,
    viewer: Viewer,
    recent: list[Event],
    page: str,
    described: dict[int, Any] | None = None,
    people_kept: dict[Any, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """What every page template gets: the viewer's view and log, never the state itself.

    `described` is shared by the views of one push, so each event's log line is worded once;
    `people_kept` too, so the players' list of the others is built once (`shared_people`).
    """
    view = pages_view(game.view(state, viewer))
    participants = view["participants"]
    player = page == "player"
    shared = player and not viewer.is_gm
    others = shared_people(game.as_seen_by(state, viewer), view, people_kept) if shared else None
    own = own_of(participants, viewer, places_in(others, people_kept) if others is not None else None)
    return {
        "v": view,
        "log": log_entries(game, state, recent, viewer, described),
        "people": others if shared else (people(view) if player else None),
        "mine": own_sheets(view, own) if player else None,
        "others": len(participants) - len(own),  # at the table, not mine
        **_plain_names(game, state, page),
        **extra,
    }


def _plain_names(game: Game, state: CampaignState, page: str) -> dict[str, Any]:
    """A page context's names that are the campaign's alone, the same for every viewer."""
    return {
        "page": page,
        "system": game.key,
        "seq": state.seq,
        "campaign_id": state.id,
        "manual": state.dice_mode == "manual",
    }


# The names of a page's context a block may read and still be drawn from a part of its view
# (`part_context`): the campaign's, and those `live_context` adds.
PLAIN_NAMES = frozenset(
    {"page", "system", "seq", "campaign_id", "manual", "oob", "system_template", "board_template"}
)


def part_context(
    game: Game, state: CampaignState, viewer: Viewer, page: str, keys: tuple[str, ...]
) -> dict[str, Any] | None:
    """A live block's context when it reads only these keys of the view and the plain names: the view's
    part that makes those keys (`Game.view_parts`), not the whole view, the log and the sheets. Reading
    anything else of it raises NotInView (app/realtime/tracked.py). None: the part cannot be built alone."""
    view = game.view_parts(state, viewer, keys)
    if view is None:
        return None
    return live_context(page, {"v": PartView(pages_view(view)), **_plain_names(game, state, page)})


def seq_marker(seq: int) -> str:
    """Every live message carries the seq it brings the page up to."""
    return f'<div id="live-seq" data-seq="{int(seq)}" hx-swap-oob="true" hidden></div>'


def flash(message: str, kind: str = "error") -> str:
    return render_template("partials/flash.html", {"message": message, "kind": kind, "oob": OOB})
