/* Xceptional 5x5 tabletop: drag a token or tap inside the movement circle to move, drag to place (GM),
   tap a highlighted target to reach its actions, pinch / wheel / buttons to zoom, one finger to pan.
   htmx does the requests (the board's hidden forms); the socket brings the new board back. */
(function () {
  "use strict";
  var views = {}; // page -> the zoomed viewBox, kept across live swaps of the board
  var pointers = new Map();
  var gesture = null;
  var selected = null; // GM: a token tapped, to be placed by the next tap on the table
  var TAP = 8; // px a finger may wander and still tap

  function stageOf(svg) { return svg.closest(".fx-stage"); }
  function keyOf(svg) { var s = stageOf(svg); return s ? s.dataset.page : "x"; }
  function full(svg) {
    var w = +svg.dataset.width, h = +svg.dataset.height;
    return { x: -0.5, y: -0.5, w: w + 1, h: h + 1 };
  }
  function box(svg) { var b = svg.viewBox.baseVal; return { x: b.x, y: b.y, w: b.width, h: b.height }; }
  function setBox(svg, b) {
    var f = full(svg);
    var w = Math.min(f.w, Math.max(3, b.w));
    var h = w * f.h / f.w;
    var x = Math.min(f.x + f.w - w, Math.max(f.x, b.x));
    var y = Math.min(f.y + f.h - h, Math.max(f.y, b.y));
    svg.setAttribute("viewBox", [x, y, w, h].join(" "));
    views[keyOf(svg)] = { x: x, y: y, w: w, h: h };
  }
  function toSvg(svg, cx, cy) {
    var p = new DOMPoint(cx, cy).matrixTransform(svg.getScreenCTM().inverse());
    return { x: p.x, y: p.y };
  }
  function zoom(svg, factor, cx, cy) {
    var b = box(svg);
    var at = cx === undefined ? { x: b.x + b.w / 2, y: b.y + b.h / 2 } : toSvg(svg, cx, cy);
    var w = b.w / factor, h = b.h / factor;
    setBox(svg, { x: at.x - (at.x - b.x) / factor, y: at.y - (at.y - b.y) / factor, w: w, h: h });
  }
  function restore() {
    document.querySelectorAll("svg.fx-map").forEach(function (svg) {
      var b = views[keyOf(svg)];
      var circle = svg.querySelector(".fx-reach.mine");
      if (b) setBox(svg, b);
      else if (circle && keyOf(svg) === "player") {
        // A phone opens on its own turn close up: the circle and a few inches around it.
        var w = Math.max(12, 2 * (+circle.dataset.r + 5));
        setBox(svg, { x: +circle.dataset.x - w / 2, y: +circle.dataset.y - w * full(svg).h / full(svg).w / 2, w: w });
      }
      if (selected) {
        var t = svg.querySelector('.fx-token[data-pid="' + selected + '"]');
        if (t) t.classList.add("selected"); else selected = null;
      }
    });
  }

  function round2(v) { return Math.round(v * 100) / 100; }
  function clampTable(svg, p) {
    return { x: Math.min(+svg.dataset.width, Math.max(0, p.x)), y: Math.min(+svg.dataset.height, Math.max(0, p.y)) };
  }
  function clampCircle(svg, p) {
    var c = svg.querySelector(".fx-reach.mine");
    if (!c) return p;
    var cx = +c.dataset.x, cy = +c.dataset.y, r = +c.dataset.r;
    var dx = p.x - cx, dy = p.y - cy, d = Math.hypot(dx, dy);
    if (d <= r) return p;
    var k = (r - 0.005) / d;
    return { x: cx + dx * k, y: cy + dy * k };
  }
  function insideCircle(svg, p) {
    var c = svg.querySelector(".fx-reach.mine");
    return c && Math.hypot(p.x - c.dataset.x, p.y - c.dataset.y) <= +c.dataset.r + 1e-6;
  }

  function send(kind, pid, p) {
    var form = document.querySelector(kind === "move" ? "form.fx-move-form" : "form.fx-place-form");
    if (!form || form.closest("fieldset[disabled]")) return; // the GM previewing a phone only looks
    if (kind === "place") form.querySelector("[name=participant]").value = pid;
    form.querySelector("[name=x]").value = round2(p.x);
    form.querySelector("[name=y]").value = round2(p.y);
    form.requestSubmit();
  }

  function ghost(svg, from, to) {
    var g = svg.querySelector(".fx-ghost");
    if (!g) {
      g = document.createElementNS("http://www.w3.org/2000/svg", "g");
      g.setAttribute("class", "fx-ghost");
      g.innerHTML = '<line class="fx-ghost-line"></line><text class="fx-ghost-text"></text>';
      svg.appendChild(g);
    }
    var line = g.firstChild, text = g.lastChild;
    line.setAttribute("x1", from.x); line.setAttribute("y1", from.y);
    line.setAttribute("x2", to.x); line.setAttribute("y2", to.y);
    text.setAttribute("x", to.x + 0.6); text.setAttribute("y", to.y - 0.6);
    text.textContent = Math.hypot(to.x - from.x, to.y - from.y).toFixed(1) + " in";
  }
  function dropGhost(svg) { var g = svg && svg.querySelector(".fx-ghost"); if (g) g.remove(); }
  function putBack(token) {
    if (!token) return;
    token.classList.remove("dragging");
    token.setAttribute("transform", "translate(" + token.dataset.x + " " + token.dataset.y + ")");
  }

  function showActions(token) {
    var section = document.getElementById(token.dataset.target);
    if (!section) return;
    section.scrollIntoView({ behavior: "smooth", block: "start" });
    section.classList.remove("fx-flash"); void section.offsetWidth; section.classList.add("fx-flash");
    var first = section.querySelector("button:not([disabled])");
    if (first) first.focus({ preventScroll: true });
  }

  function tap(svg, e, token) {
    if (token) {
      if (token.dataset.target) { showActions(token); return; }
      if (token.dataset.drag === "place") {
        svg.querySelectorAll(".fx-token.selected").forEach(function (t) { t.classList.remove("selected"); });
        selected = selected === token.dataset.pid ? null : token.dataset.pid;
        if (selected) token.classList.add("selected");
      }
      return;
    }
    var p = toSvg(svg, e.clientX, e.clientY);
    if (insideCircle(svg, p)) {
      var mover = svg.querySelector('.fx-token[data-drag="move"]');
      if (mover) { send("move", mover.dataset.pid, clampTable(svg, p)); return; }
    }
    if (selected) { send("place", selected, clampTable(svg, p)); selected = null; }
  }

  document.addEventListener("pointerdown", function (e) {
    var svg = e.target.closest && e.target.closest("svg.fx-map");
    if (!svg || (e.pointerType === "mouse" && e.button !== 0)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    try { svg.setPointerCapture(e.pointerId); } catch (err) { /* replaced mid-gesture */ }
    if (pointers.size === 2) {
      if (gesture && gesture.type === "drag") { putBack(gesture.token); dropGhost(svg); }
      var ps = Array.from(pointers.values());
      gesture = { type: "pinch", svg: svg, dist: Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y), box: box(svg) };
      return;
    }
    if (pointers.size > 2) return;
    var token = e.target.closest(".fx-token");
    if (token && token.dataset.drag) {
      gesture = { type: "drag", svg: svg, token: token, sx: e.clientX, sy: e.clientY, moved: false,
                  from: { x: +token.dataset.x, y: +token.dataset.y }, to: null };
    } else {
      gesture = { type: "pan", svg: svg, token: token, sx: e.clientX, sy: e.clientY, moved: false, box: box(svg) };
    }
    e.preventDefault();
  });

  document.addEventListener("pointermove", function (e) {
    if (!pointers.has(e.pointerId) || !gesture) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    var svg = gesture.svg;
    if (!svg.isConnected) { gesture = null; return; }
    if (gesture.type === "pinch" && pointers.size >= 2) {
      var ps = Array.from(pointers.values());
      var d = Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y);
      if (!gesture.dist || !d) return;
      svg.setAttribute("viewBox", [gesture.box.x, gesture.box.y, gesture.box.w, gesture.box.h].join(" "));
      zoom(svg, d / gesture.dist, (ps[0].x + ps[1].x) / 2, (ps[0].y + ps[1].y) / 2);
      return;
    }
    if (Math.hypot(e.clientX - gesture.sx, e.clientY - gesture.sy) > TAP) gesture.moved = true;
    if (!gesture.moved) return;
    if (gesture.type === "drag") {
      var p = clampTable(svg, toSvg(svg, e.clientX, e.clientY));
      if (gesture.token.dataset.drag === "move") p = clampCircle(svg, p);
      gesture.to = p;
      gesture.token.classList.add("dragging");
      gesture.token.setAttribute("transform", "translate(" + p.x + " " + p.y + ")");
      ghost(svg, gesture.from, p);
    } else if (gesture.type === "pan") {
      var k = gesture.box.w / svg.getBoundingClientRect().width;
      setBox(svg, { x: gesture.box.x - (e.clientX - gesture.sx) * k, y: gesture.box.y - (e.clientY - gesture.sy) * k,
                    w: gesture.box.w, h: gesture.box.h });
    }
  });

  function end(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    var g = gesture;
    if (!g) return;
    if (g.type === "pinch") { if (pointers.size === 0) gesture = null; return; }
    gesture = null;
    if (e.type === "pointercancel") { if (g.type === "drag") { putBack(g.token); dropGhost(g.svg); } return; }
    if (g.type === "drag" && g.moved && g.to) {
      dropGhost(g.svg);
      send(g.token.dataset.drag, g.token.dataset.pid, g.to);
    } else if (!g.moved) {
      tap(g.svg, e, g.token);
    }
  }
  document.addEventListener("pointerup", end);
  document.addEventListener("pointercancel", end);

  document.addEventListener("wheel", function (e) {
    var svg = e.target.closest && e.target.closest("svg.fx-map");
    if (!svg) return;
    e.preventDefault();
    zoom(svg, e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX, e.clientY);
  }, { passive: false });

  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-fx-zoom]");
    if (!b) return;
    var svg = b.closest(".fx-stage").querySelector("svg.fx-map");
    if (b.dataset.fxZoom === "in") zoom(svg, 1.5);
    else if (b.dataset.fxZoom === "out") zoom(svg, 1 / 1.5);
    else { delete views[keyOf(svg)]; setBox(svg, full(svg)); delete views[keyOf(svg)]; }
  });

  document.addEventListener("keydown", function (e) {
    var token = e.target.closest && e.target.closest(".fx-token");
    if (token && (e.key === "Enter" || e.key === " ") && token.dataset.target) { e.preventDefault(); showActions(token); }
  });

  // A refused move or placement puts the token back where the server says it is.
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.detail.elt;
    if (e.detail.successful || !form.matches || !form.matches("form.fx-move-form, form.fx-place-form")) return;
    document.querySelectorAll(".fx-token.dragging").forEach(putBack);
  });
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "fx-board") restore();
  });
  document.addEventListener("htmx:afterSettle", restore);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restore); else restore();
})();
