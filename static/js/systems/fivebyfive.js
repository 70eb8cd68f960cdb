/* Xceptional 5x5 tabletop, inside the shared map frame (static/js/frame.js pans, pinches, zooms and
   pings): drag a token or tap inside the movement circle to move, drag to place (GM), tap a highlighted
   target to reach its actions. htmx does the requests (the panel's hidden forms); the socket brings the
   new board back. */
(function () {
  "use strict";
  var selected = null; // GM: a token tapped, to be placed by the next tap on the table

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
      if (kept) kept.classList.add("selected"); else selected = null;
    }
    return {
      // A phone opens on its own turn close up: the circle and a few inches around it.
      initial: function () {
        var circle = svg.querySelector(".fx-reach.mine");
        if (!circle || frame.dataset.page !== "player") return null;
        var w = Math.max(12, 2 * (+circle.dataset.r + 5)), h = (w * +svg.dataset.height) / +svg.dataset.width;
        return [+circle.dataset.x - w / 2, +circle.dataset.y - h / 2, w, h];
      },
      claim: function (e) {
        var token = e.target.closest(".fx-token");
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
        if (token && (e.key === "Enter" || e.key === " ") && token.dataset.target) { e.preventDefault(); showActions(token); }
      },
    };
  }
  window.FrayFrame.register("fivebyfive", setup);

  // A refused move or placement puts the token back where the server says it is.
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.detail.elt;
    if (e.detail.successful || !form.matches || !form.matches("form.fx-move-form, form.fx-place-form")) return;
    document.querySelectorAll(".fx-token.dragging").forEach(putBack);
  });
})();
