/* Triptycho: tap a glowing section to move, tap a highlighted token to attack (the shared map frame pans,
   pinches and zooms the map); on the GM's map page, the section editor. htmx does every request; this
   only finds the form. */
(function () {
  "use strict";

  // --- play: taps on the map submit the option form they stand for -------------------------------
  function submitFrom(holderId) {
    var holder = document.getElementById(holderId);
    var form = holder && holder.querySelector("form");
    if (!form) return;
    var dice = form.querySelector("input[name=dice]");
    if (dice && !dice.value) {  // physical dice: type the faces first
      var details = holder.closest("details");
      if (details) details.open = true;
      holder.scrollIntoView({ block: "center" });
      dice.focus();
      return;
    }
    form.requestSubmit();
  }

  function tapTarget(el) {
    var sec = el.closest(".tp-sec.reach");
    var token = el.closest(".tp-token.target");
    if (token && token.dataset.form) return submitFrom(token.dataset.form);
    if (sec && sec.dataset.form) return submitFrom(sec.dataset.form);
  }

  document.addEventListener("keydown", function (e) {
    if ((e.key === "Enter" || e.key === " ") && e.target.closest && e.target.closest(".tp-sec.reach")) {
      e.preventDefault();
      tapTarget(e.target);
    }
  });

  // Opening a card in hand lights up its legal targets on the map; tapping one plays the card at it.
  function markTargets() {
    document.querySelectorAll(".tp-token.target").forEach(function (t) {
      t.classList.remove("target");
      delete t.dataset.form;
    });
    document.querySelectorAll(".tp-card[open] .tp-play[data-target]").forEach(function (play) {
      if (play.querySelector("button[disabled]")) return;
      document.querySelectorAll('.tp-token[data-entity="' + play.dataset.target + '"]').forEach(function (t) {
        t.classList.add("target");
        t.dataset.form = play.id;
      });
    });
  }
  document.addEventListener("toggle", function (e) {
    if (e.target.classList && e.target.classList.contains("tp-card")) markTargets();
  }, true);

  // --- the board in the shared map frame (static/js/frame.js pans, pinches, zooms and pings) -------
  // A tap on a glowing section or a marked token submits its form; a tap on anything else pings.
  // Tokens let taps through to their section; a tap within a token's circle still says its badges.
  function tokenAt(svg, at) {
    var found = null;
    svg.querySelectorAll(".tp-token[data-words]").forEach(function (t) {
      var m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(t.getAttribute("transform") || "");
      var r = +(t.querySelector("circle") || { getAttribute: function () { return 0.55; } }).getAttribute("r");
      if (m && Math.hypot(at[0] - m[1], at[1] - m[2]) <= r) found = t;
    });
    return found;
  }
  function setup(frame, svg) {
    markTargets();
    return {
      tap: function (at, e, target) {
        var hit = target.closest(".tp-sec.reach, .tp-token.target");
        var token = target.closest(".tp-token") || tokenAt(svg, at);
        if (window.FrayTokens) window.FrayTokens.showWords(token); // its rule badges in words (map.js)
        if (!hit || !hit.dataset.form) return !!(token && token.dataset.words);
        tapTarget(target);
        return true;
      },
    };
  }
  window.FrayFrame.register("triptycho", setup);

  // --- the map editor (GM tool page) ---------------------------------------------------------------
  function editor(root) {
    var NS = "http://www.w3.org/2000/svg";
    var svg = root.querySelector("svg.tp-editor");
    var status = root.querySelector(".tp-status");
    var maps = JSON.parse(document.getElementById("tp-maps-data").textContent || "[]");
    var map = { id: "new-map", name: "New map", grid: 1, sections: [], borders: [] };
    // What someone typed into the id or name while the page was still loading is theirs: kept.
    var typedId = root.querySelector("[name=mid]").value.trim(), typedName = root.querySelector("[name=mname]").value;
    if (typedId) map.id = typedId;
    if (typedName.trim()) map.name = typedName;
    var mode = "select", selected = null, edge = null, draft = [], drag = null;
    var VIEW = { x: -2, y: -2, w: 28, h: 18 };

    function say(text, bad) { status.textContent = text; status.classList.toggle("error", !!bad); }
    function el(name, attrs, parent) {
      var n = document.createElementNS(NS, name);
      for (var k in attrs) n.setAttribute(k, attrs[k]);
      (parent || svg).appendChild(n);
      return n;
    }
    function snap(evt) {
      var p = svg.createSVGPoint();
      p.x = evt.clientX; p.y = evt.clientY;
      var q = p.matrixTransform(svg.getScreenCTM().inverse());
      return [Math.round(q.x), Math.round(q.y)];
    }
    function key(p) { return p[0] + "," + p[1]; }
    function section(id) { return map.sections.find(function (s) { return s.id === id; }); }
    function centre(s) {
      var x = 0, y = 0;
      s.points.forEach(function (p) { x += p[0]; y += p[1]; });
      return [x / s.points.length, y / s.points.length];
    }
    // Shared edges (same two corners, either way round) are the borders the server will find.
    function sharedEdges() {
      var seen = {}, out = [];
      map.sections.forEach(function (s) {
        s.points.forEach(function (p, i) {
          var q = s.points[(i + 1) % s.points.length];
          var k = [key(p), key(q)].sort().join("|");
          if (seen[k] && seen[k].id !== s.id) out.push({ a: seen[k].id, b: s.id, p: p, q: q });
          else seen[k] = s;
        });
      });
      return out;
    }
    function border(a, b) {
      return map.borders.find(function (x) { return (x.a === a && x.b === b) || (x.a === b && x.b === a); });
    }
    function fit() {
      var xs = [], ys = [];
      map.sections.forEach(function (s) { s.points.forEach(function (p) { xs.push(p[0]); ys.push(p[1]); }); });
      if (backdrop) { xs.push(backdrop.x, backdrop.x + backdrop.w); ys.push(backdrop.y, backdrop.y + backdrop.h); }
      if (xs.length) {
        VIEW = { x: Math.min.apply(null, xs) - 2, y: Math.min.apply(null, ys) - 2 };
        VIEW.w = Math.max(Math.max.apply(null, xs) - VIEW.x + 2, 16);
        VIEW.h = Math.max(Math.max.apply(null, ys) - VIEW.y + 2, 10);
      }
    }
    // The scene's image to trace over, one of its grid cells to a square (set on the GM console).
    var backdrop = svg.dataset.backdrop ? JSON.parse(svg.dataset.backdrop) : null;
    function draw() {
      svg.setAttribute("viewBox", [VIEW.x, VIEW.y, VIEW.w, VIEW.h].join(" "));
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      if (backdrop) {
        el("image", { href: backdrop.href, x: backdrop.x, y: backdrop.y, width: backdrop.w, height: backdrop.h,
                      preserveAspectRatio: "none", class: "backdrop" });
      }
      for (var gx = Math.floor(VIEW.x); gx <= VIEW.x + VIEW.w; gx++)
        el("line", { x1: gx, y1: VIEW.y, x2: gx, y2: VIEW.y + VIEW.h, class: "grid-line" + (gx % 4 ? "" : " major") });
      for (var gy = Math.floor(VIEW.y); gy <= VIEW.y + VIEW.h; gy++)
        el("line", { x1: VIEW.x, y1: gy, x2: VIEW.x + VIEW.w, y2: gy, class: "grid-line" + (gy % 4 ? "" : " major") });
      map.sections.forEach(function (s) {
        el("polygon", {
          points: s.points.map(function (p) { return p.join(","); }).join(" "),
          class: "sec " + s.light + (s.water ? " water" : "") + (selected === s.id ? " selected" : ""),
          "data-section": s.id,
        });
        var c = centre(s);
        el("text", { x: c[0], y: c[1] - 0.6, class: "label" }).textContent = (s.name || s.id) + (s.water ? " ≈" : "");
        el("text", { x: c[0], y: c[1] + 0.2, class: "label small" }).textContent = s.id + " · " + s.light;
      });
      sharedEdges().forEach(function (e) {
        var b = border(e.a, e.b) || {};
        var on = edge && ((edge.a === e.a && edge.b === e.b) || (edge.a === e.b && edge.b === e.a));
        el("line", {
          x1: e.p[0], y1: e.p[1], x2: e.q[0], y2: e.q[1], "data-a": e.a, "data-b": e.b,
          class: "edge" + (b.kind === "hard" ? " hard" : "") + (b.height ? " high" : "") + (on ? " selected" : ""),
        });
        if (b.height) {  // the rise into each side, written on that side of the border
          var ca = centre(section(b.a)), cb = centre(section(b.b));
          var mx = (e.p[0] + e.q[0]) / 2, my = (e.p[1] + e.q[1]) / 2;
          var dx = cb[0] - ca[0], dy = cb[1] - ca[1], n = Math.hypot(dx, dy) || 1;
          el("text", { x: mx + 0.6 * dx / n, y: my + 0.6 * dy / n + 0.9, class: "label" }).textContent = (b.height > 0 ? "+" : "") + b.height;
          el("text", { x: mx - 0.6 * dx / n, y: my - 0.6 * dy / n + 0.9, class: "label" }).textContent = (b.height < 0 ? "+" : "") + (-b.height);
        }
      });
      var s = selected && section(selected);
      if (s && mode === "select") s.points.forEach(function (p, i) {
        el("circle", { cx: p[0], cy: p[1], r: 0.3, class: "vertex", "data-i": i });
      });
      if (draft.length) {
        el("polyline", { points: draft.map(function (p) { return p.join(","); }).join(" "), class: "draft" });
        draft.forEach(function (p) { el("circle", { cx: p[0], cy: p[1], r: 0.18, class: "draft-pt" }); });
      }
      panels();
      root.querySelector("#tp-map-json").value = JSON.stringify(clean(), null, 1);
    }
    function clean() {
      var pairs = {};
      sharedEdges().forEach(function (e) { pairs[[e.a, e.b].sort().join("|")] = true; });
      return {
        id: map.id, name: map.name, grid: map.grid || 1,
        sections: map.sections.map(function (s) {
          return { id: s.id, name: s.name || "", points: s.points, light: s.light || "lit", water: !!s.water };
        }),
        borders: map.borders.filter(function (b) {
          return pairs[[b.a, b.b].sort().join("|")] && (b.kind === "hard" || b.height || b.climb);
        }),
      };
    }
    function panels() {
      var sp = root.querySelector("#tp-section-panel"), bp = root.querySelector("#tp-border-panel");
      var s = selected && section(selected);
      sp.hidden = !s;
      if (s) {
        sp.querySelector("[name=sid]").value = s.id;
        sp.querySelector("[name=sname]").value = s.name || "";
        sp.querySelector("[name=slight]").value = s.light || "lit";
        sp.querySelector("[name=swater]").checked = !!s.water;
      }
      bp.hidden = !edge;
      if (edge) {
        var b = border(edge.a, edge.b) || { a: edge.a, b: edge.b, kind: "soft", height: 0 };
        var rise = b.a === edge.a ? (b.height || 0) : -(b.height || 0);
        bp.querySelectorAll(".tp-from").forEach(function (n) { n.textContent = edge.a; });
        bp.querySelectorAll(".tp-to").forEach(function (n) { n.textContent = edge.b; });
        bp.querySelectorAll(".tp-from2").forEach(function (n) { n.textContent = edge.b; });
        bp.querySelectorAll(".tp-to2").forEach(function (n) { n.textContent = edge.a; });
        bp.querySelector("[name=bkind]").value = b.kind || "soft";
        bp.querySelector("[name=brise]").value = rise;
        bp.querySelector("[name=bback]").value = -rise;
        bp.querySelector("[name=bclimb]").value = b.climb || "";
      }
      // Not into the field being typed in: a start or redraw between a keystroke's select and its text
      // would leave the text appended to the old id (seen as a flaky browser test: "new-mapcrypt-map").
      showIn(root.querySelector("[name=mid]"), map.id);
      showIn(root.querySelector("[name=mname]"), map.name);
    }
    function showIn(input, value) {
      if (input !== document.activeElement && input.value !== value) input.value = value;
    }
    function setMode(m) {
      mode = m;
      draft = [];
      root.querySelectorAll("[data-mode]").forEach(function (b) { b.setAttribute("aria-pressed", b.dataset.mode === m); });
      say(m === "draw" ? "Tap corners on the grid; tap the first corner (or Finish) to close the section." : "Tap a section to edit it, a border to set its kind and heights; drag corners.");
      draw();
    }
    function finishDraft() {
      if (draft.length < 3) return say("A section needs at least 3 corners.", true);
      var n = 1;
      while (section("s" + n)) n++;
      map.sections.push({ id: "s" + n, name: "Section " + n, points: draft.slice(), light: "lit", water: false });
      selected = "s" + n;
      edge = null;
      draft = [];
      setMode("select");
    }

    svg.addEventListener("pointerdown", function (evt) {
      var p = snap(evt);
      if (mode === "draw") {
        if (draft.length >= 3 && key(draft[0]) === key(p)) return finishDraft();
        if (!draft.length || key(draft[draft.length - 1]) !== key(p)) draft.push(p);
        return draw();
      }
      var t = evt.target;
      if (t.classList.contains("vertex")) {
        drag = { i: Number(t.dataset.i) };
        svg.setPointerCapture(evt.pointerId);
        return;
      }
      if (t.classList.contains("edge")) { edge = { a: t.dataset.a, b: t.dataset.b }; selected = null; return draw(); }
      if (t.dataset.section) { selected = t.dataset.section; edge = null; return draw(); }
      selected = null; edge = null; draw();
    });
    svg.addEventListener("pointermove", function (evt) {
      if (!drag || !selected) return;
      var p = snap(evt), s = section(selected), old = s.points[drag.i];
      if (key(old) === key(p)) return;
      // Corners shared with neighbours move together, so borders stay borders.
      map.sections.forEach(function (o) { o.points = o.points.map(function (q) { return key(q) === key(old) ? p : q; }); });
      draw();
    });
    svg.addEventListener("pointerup", function () { drag = null; });

    root.querySelectorAll("[data-mode]").forEach(function (b) { b.addEventListener("click", function () { setMode(b.dataset.mode); }); });
    root.querySelector("#tp-finish").addEventListener("click", finishDraft);
    root.querySelector("#tp-delete").addEventListener("click", function () {
      if (!selected) return say("Select a section first.", true);
      map.sections = map.sections.filter(function (s) { return s.id !== selected; });
      map.borders = map.borders.filter(function (b) { return b.a !== selected && b.b !== selected; });
      selected = null; draw();
    });
    root.querySelector("#tp-section-panel").addEventListener("input", function (evt) {
      var s = section(selected), f = evt.currentTarget;
      if (!s) return;
      var id = f.querySelector("[name=sid]").value.trim().replace(/[^A-Za-z0-9_.:-]/g, "");
      if (id && id !== s.id && !section(id)) {
        map.borders.forEach(function (b) { if (b.a === s.id) b.a = id; if (b.b === s.id) b.b = id; });
        s.id = id; selected = id;
      }
      s.name = f.querySelector("[name=sname]").value;
      s.light = f.querySelector("[name=slight]").value;
      s.water = f.querySelector("[name=swater]").checked;
      var keepFocus = document.activeElement;
      draw();
      if (keepFocus) keepFocus.focus();
    });
    root.querySelector("#tp-border-panel").addEventListener("input", function (evt) {
      if (!edge) return;
      var f = evt.currentTarget, back = f.querySelector("[name=bback]"), rise = f.querySelector("[name=brise]");
      if (evt.target === back) rise.value = -(Number(back.value) || 0); else back.value = -(Number(rise.value) || 0);
      map.borders = map.borders.filter(function (b) { return !((b.a === edge.a && b.b === edge.b) || (b.a === edge.b && b.b === edge.a)); });
      var nb = { a: edge.a, b: edge.b, kind: f.querySelector("[name=bkind]").value, height: Number(rise.value) || 0 };
      var climb = f.querySelector("[name=bclimb]").value.trim();
      if (climb) nb.climb = climb;
      map.borders.push(nb);
      var keepFocus = document.activeElement;
      draw();
      if (keepFocus) keepFocus.focus();
    });
    root.querySelector("[name=mid]").addEventListener("input", function (e) { map.id = e.target.value.trim(); draw(); });
    root.querySelector("[name=mname]").addEventListener("input", function (e) { map.name = e.target.value; draw(); });
    root.querySelector("#tp-open").addEventListener("change", function (e) {
      var m = maps.find(function (x) { return x.id === e.target.value; });
      if (!m) { map = { id: "new-map", name: "New map", grid: 1, sections: [], borders: [] }; }
      else map = JSON.parse(JSON.stringify(m.json));
      selected = null; edge = null; fit(); setMode("select");
    });
    root.querySelector("#tp-import").addEventListener("click", function () {
      try {
        var m = JSON.parse(root.querySelector("#tp-map-json").value);
        if (!m || !Array.isArray(m.sections)) throw new Error("no sections");
        map = { id: m.id || "imported", name: m.name || "Imported map", grid: m.grid || 1, sections: m.sections, borders: m.borders || [] };
        selected = null; edge = null; fit(); setMode("select"); say("Imported: save it to keep it.");
      } catch (err) { say("That is not a map's JSON (" + err.message + ").", true); }
    });
    root.querySelector("#tp-download").addEventListener("click", function () {
      var a = document.createElement("a");
      a.href = "data:application/json," + encodeURIComponent(JSON.stringify(clean(), null, 1));
      a.download = (map.id || "map") + ".json";
      a.click();
    });
    // The save form carries the map as JSON; the server checks it and answers with a sentence.
    root.querySelector("#tp-save-form").addEventListener("submit", function (e) {
      e.target.querySelector("[name='map:json']").value = JSON.stringify(clean());
    }, true);
    root.querySelector("#tp-load-form").addEventListener("submit", function (e) {
      e.target.querySelector("[name=map]").value = map.id;
    }, true);
    root.querySelector("#tp-delete-form").addEventListener("submit", function (e) {
      e.target.querySelector("[name=map]").value = map.id;
    }, true);
    // Keep the "Open" list in step with what the server saved or deleted.
    document.addEventListener("htmx:afterRequest", function (e) {
      var id = e.detail.elt && e.detail.elt.id;
      if (!e.detail.successful || (id !== "tp-save-form" && id !== "tp-delete-form")) return;
      var open = root.querySelector("#tp-open");
      var saved = clean();
      maps = maps.filter(function (m) { return m.id !== saved.id; });
      Array.prototype.slice.call(open.options).forEach(function (o) { if (o.value === saved.id) o.remove(); });
      if (id === "tp-save-form") {
        maps.push({ id: saved.id, name: saved.name, json: saved });
        var opt = document.createElement("option");
        opt.value = saved.id; opt.textContent = saved.name; opt.selected = true;
        open.appendChild(opt);
      }
    });
    fit();
    setMode("select");
  }

  // --- the card editor: a card's fields become one entry of the character's card list ------------
  function cardEditor(root) {
    var entities = JSON.parse(document.getElementById("tp-entities-data").textContent || "[]");
    var pick = root.querySelector("#tp-who");
    var form = root.querySelector("#tp-sheet-form");
    function load() {
      var e = entities.find(function (x) { return x.id === pick.value; });
      if (!e) return;
      form.querySelector("[name=participant]").value = e.id;
      ["side", "size", "acrobatics", "initiative"].forEach(function (k) { form.querySelector("[name=" + k + "]").value = e[k] || ""; });
      form.querySelector("[name=health]").value = e.health || "";
      ["low_light", "darkvision", "light_sensitive", "aquatic"].forEach(function (k) { form.querySelector("[name=" + k + "]").checked = !!e.senses[k]; });
      form.querySelector("[name=uses_deck]").checked = !!e.uses_deck;
      form.querySelector("[name='cards:json']").value = JSON.stringify(e.cards.map(function (c) {
        var out = {};
        for (var k in c) if (c[k] !== null && c[k] !== "" && c[k] !== false && !(k === "piercing" && !c[k])) out[k] = c[k];
        return out;
      }), null, 1);
      form.querySelector("[name='deck:json']").value = JSON.stringify(e.deck_list);
    }
    // The cards in the list, each with Edit (into the card form) and Remove.
    var box = form.querySelector("[name='cards:json']");
    var list = root.querySelector("#tp-card-list");
    var cardForm = root.querySelector("#tp-card-form");
    function cards() { try { return JSON.parse(box.value || "[]"); } catch (err) { return null; } }
    function showList() {
      var all = cards();
      list.textContent = "";
      if (!all) { list.textContent = "The list is not valid JSON yet."; return; }
      all.forEach(function (c) {
        var li = document.createElement("li");
        li.className = "tp-card " + (c.kind || "action");
        var name = document.createElement("b");
        name.textContent = (c.name || c.id) + " ";
        li.appendChild(name);
        var edit = document.createElement("button");
        edit.type = "button"; edit.textContent = "Edit"; edit.className = "ghost";
        edit.addEventListener("click", function () {
          cardForm.reset();
          cardForm.querySelectorAll("input, select, textarea").forEach(function (i) {
            if (!i.name || !(i.name in c)) return;
            if (i.type === "checkbox") i.checked = !!c[i.name]; else i.value = c[i.name];
          });
          cardForm.querySelector("#tp-copies").value = 0;
          cardForm.scrollIntoView({ block: "start" });
        });
        var drop = document.createElement("button");
        drop.type = "button"; drop.textContent = "Remove"; drop.className = "ghost danger";
        drop.addEventListener("click", function () {
          box.value = JSON.stringify(cards().filter(function (x) { return x.id !== c.id; }), null, 1);
          var deck = form.querySelector("[name='deck:json']"), ids = [];
          try { ids = JSON.parse(deck.value || "[]"); } catch (err) { ids = []; }
          deck.value = JSON.stringify(ids.filter(function (x) { return x !== c.id; }));
          showList();
        });
        li.appendChild(edit);
        li.appendChild(drop);
        list.appendChild(li);
      });
    }
    box.addEventListener("input", showList);
    pick.addEventListener("change", function () { load(); showList(); });
    root.querySelector("#tp-card-form").addEventListener("submit", function (evt) {
      evt.preventDefault();
      var f = evt.target, card = {};
      f.querySelectorAll("input, select, textarea").forEach(function (i) {
        if (!i.name) return;
        if (i.type === "checkbox") { if (i.checked) card[i.name] = true; return; }
        var v = i.value.trim();
        if (!v) return;
        card[i.name] = i.inputMode === "numeric" ? Number(v) : v;
      });
      var box = form.querySelector("[name='cards:json']"), list;
      try { list = JSON.parse(box.value || "[]"); } catch (err) { list = []; }
      list = list.filter(function (c) { return c.id !== card.id; });
      list.push(card);
      box.value = JSON.stringify(list, null, 1);
      var deck = form.querySelector("[name='deck:json']"), ids;
      try { ids = JSON.parse(deck.value || "[]"); } catch (err) { ids = []; }
      var copies = Number(f.dataset.copies || 0) || Number(root.querySelector("#tp-copies").value) || 0;
      for (var i = 0; i < copies; i++) ids.push(card.id);
      deck.value = JSON.stringify(ids);
      root.querySelector(".tp-status").textContent = card.name + " is in the list: save the sheet to keep it.";
      showList();
    });
    load();
    showList();
  }

  function start() {
    var m = document.getElementById("tp-map-editor");
    if (m) editor(m);
    var c = document.getElementById("tp-card-editor");
    if (c) cardEditor(c);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
