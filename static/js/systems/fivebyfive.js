/* Xceptional 5x5 tabletop, inside the shared map frame (static/js/frame.js pans, pinches, zooms and
   pings): drag a token or tap inside the movement circle to move, drag to place (GM), drag a name from
   the tray onto the table to put it there (GM), drag out a rectangle of terrain with the terrain tool
   (GM), move a focused token with the arrow keys, tap a highlighted target to reach its actions. htmx
   does the requests (the hidden forms); the socket brings the new board back. */
(function () {
  "use strict";
  var selected = null; // GM: a token or tray name tapped, to be placed by the next tap on the table
  var terrainTool = false; // GM: a drag on open table draws a rectangle of terrain
  var refocus = null; // the token moved with the keyboard, to focus again once the push redraws it
  var STEP = 1; // inches an arrow key moves a token (Shift: a quarter)

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
    if (!form || form.closest("fieldset[disabled]")) return false; // the GM previewing a phone only looks
    if (kind === "place") form.querySelector("[name=participant]").value = pid;
    form.querySelector("[name=x]").value = round2(p.x);
    form.querySelector("[name=y]").value = round2(p.y);
    form.requestSubmit();
    return true;
  }

  function sendTerrain(a, b) {
    var form = document.querySelector("form.fx-terrain-form");
    if (!form || form.closest("fieldset[disabled]")) return false;
    var x = round2(Math.min(a.x, b.x)), y = round2(Math.min(a.y, b.y));
    var w = round2(Math.abs(b.x - a.x)), h = round2(Math.abs(b.y - a.y));
    if (w < 0.25 || h < 0.25) return false; // a slip, not a rectangle
    form.querySelector("[name=x]").value = x;
    form.querySelector("[name=y]").value = y;
    form.querySelector("[name=width]").value = w;
    form.querySelector("[name=height]").value = h;
    form.requestSubmit();
    return true;
  }

  function drawRect(svg, a, b) {
    var r = svg.querySelector(".fx-draft");
    if (!r) r = window.FrayFrame.el("rect", { class: "fx-draft" }, window.FrayFrame.overlay(svg.parentNode));
    r.setAttribute("x", Math.min(a.x, b.x)); r.setAttribute("y", Math.min(a.y, b.y));
    r.setAttribute("width", Math.abs(b.x - a.x)); r.setAttribute("height", Math.abs(b.y - a.y));
  }
  function dropDraft(svg) { var r = svg && svg.querySelector(".fx-draft"); if (r) r.remove(); }

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

  function setup(frame, svg) {
    if (selected) {
      var kept = svg.querySelector('.fx-token[data-pid="' + selected + '"]');
      var chip = frame.querySelector('.fx-chip[data-place-pid="' + selected + '"]');
      if (kept) kept.classList.add("selected"); else if (chip) chip.classList.add("selected"); else selected = null;
    }
    var tool = frame.querySelector(".fx-terrain-tool");
    if (!tool) terrainTool = false;
    else tool.setAttribute("aria-pressed", terrainTool ? "true" : "false");
    frame.classList.toggle("fx-drawing", terrainTool);
    if (refocus) {
      var again = svg.querySelector('.fx-token[data-pid="' + refocus + '"]');
      refocus = null;
      if (again) again.focus({ preventScroll: true });
    }
    return {
      // A phone opens on its own turn close up: the circle and a few inches around it.
      initial: function () {
        var circle = svg.querySelector(".fx-reach.mine");
        if (!circle || frame.dataset.page !== "player") return null;
        var w = Math.max(12, 2 * (+circle.dataset.r + 5)), h = (w * +svg.dataset.height) / +svg.dataset.width;
        return [+circle.dataset.x - w / 2, +circle.dataset.y - h / 2, w, h];
      },
      claim: function (e, at) {
        var token = e.target.closest(".fx-token");
        if (!token && terrainTool) {
          var a = clampTable(svg, { x: at[0], y: at[1] }), b = null;
          return {
            move: function (p) { b = clampTable(svg, { x: p[0], y: p[1] }); drawRect(svg, a, b); },
            end: function () { if (!b || !sendTerrain(a, b)) dropDraft(svg); },
            cancel: function () { dropDraft(svg); },
          };
        }
        if (!token || !token.dataset.drag) return null;
        var from = { x: +token.dataset.x, y: +token.dataset.y }, to = null;
        return {
          move: function (at) {
            var p = clampTable(svg, { x: at[0], y: at[1] });
            if (token.dataset.drag === "move") p = clampCircle(svg, p);
            to = p;
            token.classList.add("dragging");
            token.setAttribute("transform", "translate(" + p.x + " " + p.y + ")");
            ghost(svg, from, p);
          },
          end: function () {
            dropGhost(svg);
            if (!to || !send(token.dataset.drag, token.dataset.pid, to)) putBack(token);
          },
          cancel: function () { putBack(token); dropGhost(svg); },
        };
      },
      tap: function (at, e, target) {
        var token = target.closest(".fx-token");
        if (token) {
          if (token.dataset.target) { showActions(token); return true; }
          if (token.dataset.drag === "place") {
            svg.querySelectorAll(".fx-token.selected").forEach(function (t) { t.classList.remove("selected"); });
            selected = selected === token.dataset.pid ? null : token.dataset.pid;
            if (selected) token.classList.add("selected");
          }
          if (window.FrayTokens) window.FrayTokens.showWords(token); // its rule badges in words (map.js)
          return true;
        }
        var p = { x: at[0], y: at[1] };
        if (insideCircle(svg, p)) {
          var mover = svg.querySelector('.fx-token[data-drag="move"]');
          if (mover) { send("move", mover.dataset.pid, clampTable(svg, p)); return true; }
        }
        if (selected) { send("place", selected, clampTable(svg, p)); selected = null; return true; }
        return false; // the frame pings the spot
      },
      key: function (e) {
        var token = e.target.closest && e.target.closest(".fx-token");
        if (e.key === "Escape" && terrainTool) { setTool(frame, false); return; }
        if (token && (e.key === "Enter" || e.key === " ") && token.dataset.target) { e.preventDefault(); showActions(token); }
        var arrow = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
        if (!token || !arrow || !token.dataset.drag || e.altKey || e.ctrlKey || e.metaKey) return;
        e.preventDefault();
        var step = e.shiftKey ? STEP / 4 : STEP;
        var p = clampTable(svg, { x: +token.dataset.x + arrow[0] * step, y: +token.dataset.y + arrow[1] * step });
        if (token.dataset.drag === "move") p = clampCircle(svg, p);
        if (Math.hypot(p.x - token.dataset.x, p.y - token.dataset.y) < 0.01) return; // at the edge already
        token.classList.add("dragging");
        token.setAttribute("transform", "translate(" + p.x + " " + p.y + ")");
        refocus = token.dataset.pid;
        if (!send(token.dataset.drag, token.dataset.pid, p)) { putBack(token); refocus = null; }
      },
    };
  }
  window.FrayFrame.register("fivebyfive", setup);

  function setTool(frame, on) {
    terrainTool = on;
    var tool = frame.querySelector(".fx-terrain-tool");
    if (tool) tool.setAttribute("aria-pressed", on ? "true" : "false");
    frame.classList.toggle("fx-drawing", on);
    if (on) { selected = null; frame.querySelectorAll(".selected").forEach(function (t) { t.classList.remove("selected"); }); }
  }
  document.addEventListener("click", function (e) {
    var tool = e.target.closest && e.target.closest(".fx-terrain-tool");
    if (tool) setTool(tool.closest(".mapframe"), !terrainTool);
    // Enter or Space on a tray name (a click with no pointer) puts it in the middle of what the frame
    // shows, focused, for the arrow keys to take it on from there.
    var chip = e.detail === 0 && e.target.closest && e.target.closest(".fx-chip[data-place-pid]");
    var frame = chip && chip.closest(".mapframe"), svg = frame && frame.querySelector(":scope > svg");
    if (!svg) return;
    var box = window.FrayFrame.view(frame);
    refocus = chip.dataset.placePid;
    if (!send("place", chip.dataset.placePid, clampTable(svg, { x: box[0] + box[2] / 2, y: box[1] + box[3] / 2 }))) refocus = null;
  });

  // The tray: a name dragged from it (mouse or finger) onto the table is placed where it is dropped, in
  // the inches under the pointer at the frame's present pan and zoom; a tap selects it, for a tap on the table.
  document.addEventListener("pointerdown", function (e) {
    var chip = e.target.closest && e.target.closest(".fx-chip[data-place-pid]");
    if (!chip || (e.pointerType === "mouse" && e.button !== 0)) return;
    var frame = chip.closest(".mapframe"), svg = frame && frame.querySelector(":scope > svg");
    if (!svg) return;
    e.preventDefault();
    try { chip.setPointerCapture(e.pointerId); } catch (_) { /* replaced meanwhile */ }
    var start = [e.clientX, e.clientY], moved = false, spot = null, mark = null;
    function over(ev) {
      var box = svg.getBoundingClientRect();
      if (ev.clientX < box.left || ev.clientX > box.right || ev.clientY < box.top || ev.clientY > box.bottom) return null;
      var at = window.FrayFrame.point(svg, ev.clientX, ev.clientY);
      var w = +svg.dataset.width, h = +svg.dataset.height;
      return at[0] >= 0 && at[0] <= w && at[1] >= 0 && at[1] <= h ? { x: at[0], y: at[1] } : null;
    }
    function onMove(ev) {
      if (ev.pointerId !== e.pointerId) return;
      if (Math.hypot(ev.clientX - start[0], ev.clientY - start[1]) > 8) moved = true;
      if (!moved) return;
      chip.classList.add("dragging");
      spot = over(ev);
      if (!mark) {
        mark = window.FrayFrame.el("g", { class: "fx-token fx-drop " + (chip.classList.contains("npc") ? "npc" : "pc") }, window.FrayFrame.overlay(frame));
        window.FrayFrame.el("circle", { class: "fx-base", r: 0.45 }, mark);
        window.FrayFrame.el("text", { class: "fx-name", y: 1.05 }, mark).textContent = chip.dataset.name;
      }
      mark.style.display = spot ? "" : "none";
      if (spot) mark.setAttribute("transform", "translate(" + spot.x + " " + spot.y + ")");
    }
    function onEnd(ev) {
      if (ev.pointerId !== e.pointerId) return;
      chip.removeEventListener("pointermove", onMove);
      chip.removeEventListener("pointerup", onEnd);
      chip.removeEventListener("pointercancel", onEnd);
      chip.classList.remove("dragging");
      if (ev.type === "pointerup" && moved) spot = over(ev);
      if (ev.type === "pointerup" && moved && spot && send("place", chip.dataset.placePid, spot)) return; // the push redraws
      if (mark) mark.remove();
      if (ev.type === "pointerup" && !moved) {
        frame.querySelectorAll(".selected").forEach(function (t) { t.classList.remove("selected"); });
        selected = selected === chip.dataset.placePid ? null : chip.dataset.placePid;
        if (selected) { setTool(frame, false); chip.classList.add("selected"); }
      }
    }
    chip.addEventListener("pointermove", onMove);
    chip.addEventListener("pointerup", onEnd);
    chip.addEventListener("pointercancel", onEnd);
  });

  // A refused move or placement puts the token back where the server says it is.
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.detail.elt;
    if (!form.matches || !form.matches("form.fx-move-form, form.fx-place-form, form.fx-terrain-form")) return;
    if (form.matches(".fx-terrain-form")) { if (!e.detail.successful) document.querySelectorAll(".fx-draft").forEach(function (r) { r.remove(); }); return; }
    if (e.detail.successful) return;
    refocus = null;
    document.querySelectorAll(".fx-token.dragging").forEach(putBack);
    document.querySelectorAll(".fx-drop").forEach(function (g) { g.remove(); });
  });
})();
