"""The map's sight and door layers written in Python (app/realtime/svg.py, `sight_layer` and `door_layer`)
read as the templates' macros drew them: the GM's walls, lights and token sights, a phone's sight mask,
the doors a phone sees (usable or not, on the phone, the table's TV and a replay), and nothing where a
scene has no vision."""

from __future__ import annotations

import itertools

from app.realtime import svg
from app.realtime.render import ENV

# The macros as walls.html had them before they were written in Python.
MACROS = ENV.from_string(
    """{% macro layer(m, page) -%}
{% set size = m.grid.size %}
{% set W, H = m.width, m.height %}
{% if page == "gm" and (m.walls or m.lights) %}{{
  drawn(wallui.gm_walls, m.walls or (), m.lights or (), size) }}
{% endif %}
{% if page == "gm" %}
<g class="map-token-sights">
  {% for t in m.tokens if t.sight %}
  <circle class="token-sight-of" data-token="{{ t.id }}"
   data-range="{{ t.sight.range if t.sight.range is not none else '' }}"
   data-darkvision="{{ t.sight.darkvision or 0 }}"
          cx="{{ t.x }}" cy="{{ t.y }}" r="{{ t.sight.darkvision or 0 }}"/>
  {% endfor %}
</g>
{% endif %}
{% if page != "gm" and m.vision %}
<g class="map-vision">
  <mask id="sight-mask-{{ page }}" maskUnits="userSpaceOnUse" x="0" y="0" width="{{ W }}" height="{{ H }}">
    <rect width="{{ W }}" height="{{ H }}" fill="white"/>
    {% if m.sight %}<path class="sight" d="{{ m.sight }}" fill="black" fill-rule="evenodd"/>{% endif %}
  </mask>
  <rect class="map-unseen" width="{{ W }}" height="{{ H }}" mask="url(#sight-mask-{{ page }})"/>
</g>
{% endif %}
{%- endmacro %}
{% macro doors(m, page) -%}
{% set size = m.grid.size %}
{% if page == "gm" and m.walls %}{{ drawn(wallui.gm_doors, m.walls, size) }}
{% elif page != "gm" and m.vision and m.doors %}
<g class="map-doors map-vision-doors">
  {% for d in m.doors %}{{ drawn(wallui.door_icon, d.id, d.x, d.y, d.open, d.locked, size,
    d.usable and page == "player", page == "player") }}{% endfor %}
</g>
{% endif %}
{%- endmacro %}"""
).module


def _maps() -> list[dict]:
    tokens = [
        {"id": "t1", "x": 32.0, "y": 96.5},
        {"id": "t2", "x": 160, "y": 32, "sight": {"range": None, "darkvision": 128}},
        {"id": "t<3>", "x": 1.5, "y": 2.5, "sight": {"range": 320.0, "darkvision": 0}},
    ]
    walls = [
        {"id": "w1", "kind": "wall", "points": [[0, 0], [64, 0]], "open": False, "locked": False},
        {"id": "d1", "kind": "door", "points": [[64, 0], [128, 0]], "open": True, "locked": False},
    ]
    lights = [{"id": "l1", "x": 10, "y": 20, "bright": 64, "dim": 128, "color": None}]
    doors = [
        {"id": "d1", "x": 96.0, "y": 0.0, "open": True, "locked": False, "usable": True},
        {"id": "d2", "x": 10, "y": 5.5, "open": False, "locked": True, "usable": False},
        {"id": "d3", "x": 20, "y": 5.5, "open": False, "usable": False},  # as a phone's view lists a door
    ]
    base = {"scene": "s1", "width": 640, "height": 480.5, "grid": {"size": 64.0}, "tokens": tokens}
    return [
        base,  # no vision: no mask, no doors
        {**base, "walls": walls, "lights": lights, "vision": True},  # the GM's
        {**base, "walls": walls, "vision": True},
        {**base, "lights": lights},
        {**base, "vision": True, "sight": 'M 0 0 L 10 0 L 5 5 Z "<x>"', "doors": doors},  # a phone's
        {**base, "vision": True, "sight": "", "doors": []},  # a phone that sees nothing now
    ]


def test_the_sight_and_door_layers_read_as_the_templates_macros_drew_them():
    drawn, wallui = ENV.globals["drawn"], ENV.globals["wallui"]
    drawn_any = 0
    for m, page in itertools.product(_maps(), ["gm", "player", "table", "replay"]):
        looped = str(MACROS.layer(m, page)) + str(MACROS.doors(m, page))
        written = str(svg.sight_layer(drawn, wallui.gm_walls, m, page)) + str(  # type: ignore[attr-defined]
            svg.door_layer(drawn, wallui.gm_doors, wallui.door_icon, m, page)  # type: ignore[attr-defined]
        )
        assert "".join(written.split()) == "".join(looped.split()), (page, m)  # the same, spaces aside
        drawn_any += written.count("<")
    assert drawn_any > 0
    phone = _maps()[4]
    written = str(svg.sight_layer(drawn, wallui.gm_walls, phone, "player"))  # type: ignore[attr-defined]
    assert 'd="M 0 0 L 10 0 L 5 5 Z &#34;&lt;x&gt;&#34;"' in written  # escaped as the template did
    doors = str(svg.door_layer(drawn, wallui.gm_doors, wallui.door_icon, phone, "player"))  # type: ignore[attr-defined]
    assert doors.count('data-door="') == 3 and doors.count(" usable") == 1
    assert str(svg.door_layer(drawn, wallui.gm_doors, wallui.door_icon, phone, "table")).count(" usable") == 0  # type: ignore[attr-defined]
    gm = str(svg.sight_layer(drawn, wallui.gm_walls, _maps()[1], "gm"))  # type: ignore[attr-defined]
    assert 'data-token="t&lt;3&gt;" data-range="320.0" data-darkvision="0"' in gm and 'data-range=""' in gm
