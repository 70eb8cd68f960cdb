"""The templates' environment reads a view's dict keys by a shortcut: what it reads must be what Jinja
reads (a dict's own attributes first, then its keys, else undefined), and a tracked view still notes
every key read."""

from jinja2 import Environment

from app.realtime.render import ENV
from app.realtime.svg import tile_layer
from app.realtime.tracked import Tracked


def _both(source: str, **context: object) -> tuple[str, str]:
    plain = Environment(autoescape=True).from_string(source).render(**context)
    return ENV.from_string(source).render(**context), plain


def test_dict_keys_read_as_jinja_reads_them() -> None:
    view = {"x": 3, "items": [1, 2], "nested": {"y": "<b>"}}
    source = "{{ v.x }} {{ v.nested.y }} {{ v.items is callable }} {{ v.missing is defined }}"
    source += " {{ v.get('x') }}"
    ours, jinja = _both(source, v=view)
    assert ours == jinja == "3 &lt;b&gt; True False 3"


def test_tracked_view_notes_the_keys_read_by_attribute() -> None:
    view = Tracked({"map": {"tiles": []}, "seats": [], "log": []})
    ENV.from_string("{{ v.map.tiles | length }}{{ v.nope is defined }}").render(v=view)
    assert view.read == {"map", "nope"}


def test_tile_layer_escapes_what_the_template_escaped() -> None:
    tiles = [{"x": 0, "y": 256, "w": 256, "h": 128, "url": '/t/0/1?v=a&b"<'}]
    out = str(tile_layer(tiles, "pl<ayer", 1920, 1920))
    assert 'id="tile-pl&lt;ayer-0-256"' in out
    assert 'href="/t/0/1?v=a&amp;b&#34;&lt;"' in out
    assert out.startswith('<g class="map-tiles">') and out.endswith("</g>")


def test_a_list_of_tiles_is_written_once_per_page_and_size_and_an_equal_new_list_afresh() -> None:
    """A viewer's tiles are one list while they do not change (kept with them): a board drawn again for
    a move elsewhere finds their layer written."""
    tiles = [{"x": 0, "y": 0, "w": 256, "h": 256, "url": "/t/0/0?v=a"}]
    first = tile_layer(tiles, "player", 512, 512)
    assert tile_layer(tiles, "player", 512, 512) is first
    assert 'id="tile-table-0-0"' in str(tile_layer(tiles, "table", 512, 512))
    moved = [{**tiles[0], "url": "/t/0/0?v=b"}]
    assert "v=b" in str(tile_layer(moved, "player", 512, 512)) and "v=b" not in str(first)
