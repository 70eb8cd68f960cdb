// Fray's map frame, one for every board: pan (one finger or mouse), pinch and wheel zoom, token drag
// (only the drop is a command), a ruler in the scene's units, pings, and the GM's fog and drawing tools.
// The server is the truth: every change is a command, and a live push redraws the map for each viewer.
(() => {
  "use strict";
  let tool = "move";
  let selected = null; // token id
  let placing = null; // a tray chip clicked, waiting for a click on the map

  const $ = (sel, root = document) => root.querySelector(sel);
  // Other scripts' tools on the scene (static/js/walls.js): asked first, `undefined` when not theirs.
  const extensions = (window.FrayMapTools = window.FrayMapTools || []);
  const asked = (hook, ...args) => {
    for (const x of extensions) {
      const answer = x[hook] ? x[hook](...args, tool) : undefined;
      if (answer !== undefined) return answer;
    }
    return undefined;
  };
  const campaignOf = (frame) => frame.dataset.campaign;
  const isGm = (frame) => frame.hasAttribute("data-gm");
  const newId = () => (crypto.randomUUID ? crypto.randomUUID() : String(Date.now() + Math.random()));

  function flash(text, kind = "error") {
    const box = $("#flash");
    if (!box) return;
    box.innerHTML = "";
    const p = document.createElement("p");
    p.className = kind;
    p.textContent = text;
    box.appendChild(p);
    box.classList.add("show");
    setTimeout(() => { p.remove(); if (!box.childElementCount) box.classList.remove("show"); }, 4000);
  }

  const OFFLINE = "Offline: nothing was sent. The map shows the table as the server has it; try again when the connection is back.";
  async function post(url, body) {
    let r;
    try {
      r = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch (_) { // no network: the caller puts back what it showed early (a dragged token)
      flash(OFFLINE);
      return null;
    }
    if (!r.ok) {
      let detail = `The server said ${r.status}.`;
      try { detail = (await r.json()).detail || detail; } catch (_) { /* not JSON */ }
      flash(detail);
      return null;
    }
    return r.status === 204 ? {} : r.json();
  }

  const command = (cid, payload) =>
    post(`/api/campaigns/${cid}/commands`, { command_id: newId(), ...payload });
  const signal = (cid, payload) => post(`/api/campaigns/${cid}/signals`, payload);
  // Signals at most every `ms`, one at a time and in order, the newest winning: whatever is dropped, the
  // last one given (where a drag stopped) always goes out.
  // `answered` gets each reply (a ruler's carries its distance, as the server measures it).
  function latest(cid, ms, answered) {
    let next = null, busy = false, timer = null, last = 0;
    const flush = async () => {
      timer = null;
      if (busy || !next) return;
      const body = next;
      next = null;
      busy = true;
      last = Date.now();
      const reply = await signal(cid, body);
      if (reply && answered) answered(reply);
      busy = false;
      if (next) later();
    };
    const later = () => { timer ??= setTimeout(flush, Math.max(0, ms - (Date.now() - last))); };
    return (body) => { next = body; if (!busy) later(); };
  }

  // --- overlays: rulers, ghosts, shapes being drawn ------------------------------------------------
  const el = (name, attrs, parent) => window.FrayFrame.el(name, attrs, parent);
  const cellSize = (frame) => JSON.parse(frame.dataset.grid).size;
  // The line follows the pointer at once; its label is the server's distance (app/rules/map/geometry.py
  // `ruler_text`), from the reply to the ruler's signal or from the shared ruler's message: one rule of
  // distance, written once. Until the answer comes the label keeps the last one it had.
  function drawRuler(frame, from, to, id = "ruler-local", text = null) {
    const overlay = window.FrayFrame.overlay(frame);
    let g = overlay.querySelector(`[data-ruler="${id}"]`);
    if (!g) g = el("g", { class: "ruler", "data-ruler": id }, overlay);
    const said = g.querySelector("text")?.textContent || "…";
    g.innerHTML = "";
    el("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1] }, g);
    const label = el("text", { x: to[0] + 8, y: to[1] - 8 }, g);
    label.textContent = text ?? said;
    return g;
  }
  function rulerSaid(frame, id, text) {
    const label = window.FrayFrame.overlay(frame).querySelector(`[data-ruler="${id}"] text`);
    if (label && text) label.textContent = text;
  }
  function shapeOverlay(frame, kind) {
    const overlay = window.FrayFrame.overlay(frame);
    overlay.querySelectorAll(".shape-draft").forEach((n) => n.remove());
    return el(kind, { class: "shape-draft" }, overlay);
  }

  // --- tokens ------------------------------------------------------------------------------------
  function select(frame, id) {
    selected = id;
    frame.querySelectorAll(".token").forEach((t) => t.classList.toggle("selected", t.dataset.token === id));
    asked("select", frame, id);
    const actions = $("#map-token-actions");
    if (!actions) return;
    const token = id && frame.querySelector(`.token[data-token="${id}"]`);
    actions.hidden = !token || !isGm(frame);
    if (token) {
      $(".selected-name", actions).textContent = token.dataset.name;
      $('[data-token-action="locked"]', actions).textContent = token.classList.contains("locked") ? "Unlock" : "Lock";
      $('[data-token-action="hidden"]', actions).textContent = token.classList.contains("is-hidden") ? "Show" : "Hide";
      const colour = $("[data-token-color]", actions); // the token's colour (pictures.js sends a change)
      if (colour) colour.value = $(".token-body", token)?.dataset.fill || "#3d7dd8";
    }
  }
  // A drag made offline snaps back with the offline notice (docs/maps.md says why it is not queued).
  const snapBack = (token) => token.setAttribute("transform", `translate(${token.dataset.x} ${token.dataset.y})`);
  function moveToken(frame, token, x, y, free) {
    if (navigator.onLine === false) {
      snapBack(token);
      flash(OFFLINE);
      return Promise.resolve(null);
    }
    token.setAttribute("transform", `translate(${x} ${y})`);
    return command(campaignOf(frame), { type: "map.token.move", token: token.dataset.token, x, y, free }).then(
      (reply) => { if (!reply) snapBack(token); },
    );
  }

  // --- the scene's own gestures, inside the shared frame (static/js/frame.js pans, zooms and pings) --
  let polygon = [];
  const clearDrafts = (frame) => frame.querySelectorAll(".shape-draft").forEach((n) => n.remove());

  // Lining up the grid by eye: a box over one cell (a drag, or two taps on opposite corners) gives the
  // cell's size and the grid's offset; the form follows and the grid is previewed before "Set grid".
  let corner = null;
  const gridForm = () => $('.grid-form[data-map-form="map.scene.update"]');
  function boxCell(frame, draft, a, b) {
    const [x, y, w, h] = [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.abs(b[0] - a[0]), Math.abs(b[1] - a[1])];
    if (draft) Object.entries({ x, y, width: w, height: h }).forEach(([k, v]) => draft.setAttribute(k, v));
    const form = gridForm(), size = Math.round(((w + h) / 2) * 10) / 10;
    if (!form || size < 5) return;
    const set = (name, v) => { form.elements[name].value = v; };
    if (form.elements["grid.type"].value === "none") set("grid.type", "square");
    set("grid.size", size);
    set("grid.offset.0", Math.round((((x % size) + size) % size) * 10) / 10);
    set("grid.offset.1", Math.round((((y % size) + size) % size) * 10) / 10);
    previewGrid(frame);
  }
  // The square grid's pattern redrawn from the form's numbers (a live push redraws it from the scene).
  function previewGrid(frame) {
    const form = gridForm(), pattern = frame && frame.querySelector("pattern[id^='grid-']");
    if (!form || !pattern || form.elements["grid.type"].value !== "square") return;
    const size = +form.elements["grid.size"].value;
    if (!(size >= 5)) return;
    Object.entries({ width: size, height: size, x: +form.elements["grid.offset.0"].value || 0, y: +form.elements["grid.offset.1"].value || 0 })
      .forEach(([k, v]) => pattern.setAttribute(k, v));
    pattern.querySelector("path").setAttribute("d", `M ${size} 0 L 0 0 0 ${size}`);
  }
  // A form whose fields all still hold what the page was drawn with would change nothing: not worth a refusal.
  const unchanged = (form) => [...form.elements].every((f) => !f.name || (f.type === "checkbox" ? f.checked === f.defaultChecked
    : f.tagName === "SELECT" ? [...f.options].every((o) => o.selected === o.defaultSelected) : f.value === f.defaultValue));

  function claim(frame, e, at) {
    const cid = campaignOf(frame), scene = frame.dataset.scene;
    const theirs = asked("claim", frame, e, at);
    if (theirs !== undefined) return theirs;
    const token = e.target.closest(".token");
    if (token && tool === "move") {
      select(frame, token.dataset.token);
      if (!token.classList.contains("movable")) return null;
      const x0 = +token.dataset.x, y0 = +token.dataset.y;
      let to = null, sent = 0;
      return {
        move(p) {
          token.setAttribute("transform", `translate(${p[0]} ${p[1]})`);
          to = p;
          if (Date.now() - sent > 150) {
            sent = Date.now();
            signal(cid, { "map.ghost": { token: token.dataset.token, x: p[0], y: p[1] } });
          }
        },
        end(_, ev) { if (to) moveToken(frame, token, Math.round(to[0] * 10) / 10, Math.round(to[1] * 10) / 10, ev.altKey); },
        cancel() { token.setAttribute("transform", `translate(${x0} ${y0})`); },
      };
    }
    if (tool === "ruler") {
      const shared = $("#map-share-ruler")?.checked && isGm(frame);
      const ask = latest(cid, shared ? 200 : 250, (reply) => rulerSaid(frame, "ruler-local", reply["map.ruler"]?.distance));
      return {
        move(p) {
          drawRuler(frame, at, p);
          ask({ "map.ruler": shared ? { scene, from: at, to: p } : { scene, from: at, to: p, share: false } });
        },
        end() { setTimeout(() => window.FrayFrame.overlay(frame).querySelector(".ruler")?.remove(), 2500); },
      };
    }
    if ((tool === "reveal" || tool === "cover") && isGm(frame)) {
      const draft = shapeOverlay(frame, "rect");
      let rect = null;
      return {
        move(p) {
          rect = [Math.min(at[0], p[0]), Math.min(at[1], p[1]), Math.abs(p[0] - at[0]), Math.abs(p[1] - at[1])];
          const [x, y, width, height] = rect;
          Object.entries({ x, y, width, height }).forEach(([k, v]) => draft.setAttribute(k, v));
        },
        end() {
          clearDrafts(frame);
          if (rect && rect[2] > 2 && rect[3] > 2) {
            command(cid, { type: tool === "cover" ? "map.fog.cover" : "map.fog.reveal", scene, rect: rect.map((v) => Math.round(v)) });
          }
        },
        cancel() { clearDrafts(frame); },
      };
    }
    if (tool === "grid" && isGm(frame)) {
      const draft = shapeOverlay(frame, "rect");
      return {
        move(p) { boxCell(frame, draft, at, p); },
        end() { clearDrafts(frame); },
        cancel() { clearDrafts(frame); previewGrid(frame); },
      };
    }
    if (tool === "draw" && isGm(frame)) {
      const draft = shapeOverlay(frame, "polyline"), points = [at];
      return {
        move(p) { points.push(p); draft.setAttribute("points", points.map((q) => q.join(",")).join(" ")); },
        end() {
          clearDrafts(frame);
          const kept = points.filter((_, i) => i % 2 === 0 || i === points.length - 1).map((q) => q.map(Math.round));
          if (kept.length > 1) command(cid, { type: "map.draw", scene, points: kept });
        },
        cancel() { clearDrafts(frame); },
      };
    }
    return null; // the frame pans
  }

  // A tap: place a chip, add a polygon corner, select a token (a player's own opens its actions), or
  // (returning false) let the frame ping the spot.
  function tap(frame, at, e, target) {
    const cid = campaignOf(frame), scene = frame.dataset.scene;
    if (placing && isGm(frame)) {
      command(cid, { type: "map.token.place", scene, x: at[0], y: at[1], free: e.altKey, ...placing });
      placing = null;
      return true;
    }
    const theirs = asked("tap", frame, at, e, target);
    if (theirs !== undefined) return theirs;
    if (tool === "grid" && isGm(frame)) {
      if (!corner) { corner = at; shapeOverlay(frame, "rect"); return true; }
      boxCell(frame, null, corner, at);
      corner = null;
      clearDrafts(frame);
      return true;
    }
    if (tool === "polygon" && isGm(frame)) {
      polygon.push(at.map(Math.round));
      shapeOverlay(frame, "polygon").setAttribute("points", polygon.map((p) => p.join(",")).join(" "));
      return true;
    }
    const token = target.closest(".token");
    if (token) {
      select(frame, token.dataset.token);
      if (!isGm(frame) && token.classList.contains("mine")) { showWords(null); openActions(token); } else { openActions(token, false); showWords(token); }
      return true;
    }
    select(frame, null);
    showWords(null);
    return !(tool === "ping" || tool === "move");
  }

  // On a phone, a tap on one's own token opens what that player may do with it, over the map; it stays
  // open through live pushes until closed or used.
  let sheetOpen = null;
  function openActions(token, open = true) {
    sheetOpen = (open && token.dataset.participant) || null;
    showSheet();
  }

  // A tap on a token says its rule badges (and whose turn it is) in words, in a small box by it. A
  // phone's own token opens its sheet instead, which lists them too.
  function showWords(token) {
    let pop = document.getElementById("token-pop");
    const said = token ? (token.dataset.words || "").split("|").filter(Boolean) : [];
    if (token && token.matches(".turn, .fx-token.current, .tp-token.current")) said.unshift(`${token.dataset.name}'s turn`);
    if (!said.length) { if (pop) pop.hidden = true; return; }
    if (!pop) {
      pop = document.createElement("div");
      pop.id = "token-pop";
      pop.className = "token-pop";
      pop.setAttribute("role", "status");
      document.body.appendChild(pop);
    }
    const name = document.createElement("b"), list = document.createElement("ul");
    name.textContent = token.dataset.name;
    said.forEach((w) => { const li = document.createElement("li"); li.textContent = w; list.appendChild(li); });
    pop.replaceChildren(name, list);
    pop.hidden = false;
    const r = token.getBoundingClientRect();
    pop.style.left = `${Math.max(8, Math.min(window.innerWidth - pop.offsetWidth - 8, r.left + r.width / 2 - pop.offsetWidth / 2))}px`;
    pop.style.top = `${r.bottom + 8 + pop.offsetHeight > window.innerHeight ? Math.max(8, r.top - pop.offsetHeight - 8) : r.bottom + 8}px`;
  }
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") showWords(null); });
  window.FrayTokens = { showWords }; // a game's own board (5x5's tabletop) says its tokens' badges too

  // On the phone whose turn it is, the map brings that player's token into view once, when the turn
  // becomes theirs (not on every push while it stays theirs): on the scene or on a game's own board.
  const TURN_MINE = ".token.turn.mine, .fx-token.current.mine, .tp-token.current.mine";
  let turnShown = false;
  function turnIntoView() {
    const frame = document.querySelector('.mapframe[data-page="player"][data-ready]');
    const token = frame && frame.querySelector(TURN_MINE);
    if (!token) { if (frame) turnShown = false; return; }
    if (turnShown) return;
    turnShown = true;
    const at = /translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)/.exec(token.getAttribute("transform") || "");
    if (!at) return;
    const [vx, vy, vw, vh] = window.FrayFrame.view(frame), x = +at[1], y = +at[2];
    const inside = x > vx + vw * 0.1 && x < vx + vw * 0.9 && y > vy + vh * 0.1 && y < vy + vh * 0.9;
    if (!inside) window.FrayFrame.setView(frame, [x - vw / 2, y - vh / 2, vw, vh]);
    const box = frame.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) frame.scrollIntoView({ block: "nearest" });
  }
  // After frame.js has attached a new board and put back its kept view.
  let turnCheck = 0;
  new MutationObserver(() => { cancelAnimationFrame(turnCheck); turnCheck = requestAnimationFrame(turnIntoView); })
    .observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-ready"] });
  function showSheet() {
    document.querySelectorAll(".token-sheet").forEach((s) => { s.hidden = s.dataset.participant !== sheetOpen; });
  }
  document.addEventListener("click", (e) => {
    if (e.target.closest && e.target.closest("[data-close-sheet]")) { sheetOpen = null; showSheet(); }
  });
  document.addEventListener("submit", (e) => {
    if (e.target.closest && e.target.closest(".token-sheet")) sheetOpen = null;
  });

  function setup(frame, svg) {
    if (selected) select(frame, selected);
    showSheet();
    asked("setup", frame, svg);
    svg.addEventListener("dblclick", (e) => {
      if (tool !== "polygon" || polygon.length < 3) return;
      e.preventDefault();
      command(campaignOf(frame), { type: "map.fog.reveal", scene: frame.dataset.scene, polygon });
      polygon = [];
      clearDrafts(frame);
    });
    frame.addEventListener("focusin", (e) => {
      const token = e.target.closest && e.target.closest(".token");
      if (token) select(frame, token.dataset.token);
    });
    frame.addEventListener("dragover", (e) => { if (isGm(frame)) e.preventDefault(); });
    frame.addEventListener("drop", (e) => {
      const chip = e.dataTransfer.getData("application/x-fray-token");
      if (!chip || !isGm(frame)) return;
      e.preventDefault();
      const at = window.FrayFrame.point(svg, e.clientX, e.clientY);
      command(campaignOf(frame), { type: "map.token.place", scene: frame.dataset.scene, x: at[0], y: at[1], free: e.altKey, ...JSON.parse(chip) });
    });
    return {
      claim: (e, at) => claim(frame, e, at),
      tap: (at, e, target) => tap(frame, at, e, target),
      key(e) {
        if (asked("key", frame, e)) return;
        if (e.key === "Escape") {
          polygon = [];
          corner = null;
          clearDrafts(frame);
          select(frame, null);
          return;
        }
        const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
        const token = selected && frame.querySelector(`.token[data-token="${selected}"].movable`);
        if (!arrows[e.key] || !token) return;
        e.preventDefault();
        const step = cellSize(frame), [dx, dy] = arrows[e.key];
        moveToken(frame, token, +token.dataset.x + dx * step, +token.dataset.y + dy * step, false);
      },
    };
  }
  window.FrayFrame.register("scene", setup);

  // --- the GM's tools outside the frame ----------------------------------------------------------
  const frameNow = () => $('.page-gm .mapframe[data-kind="scene"]') || $('.mapframe[data-kind="scene"]');
  const gmCampaign = () => $("[data-live]")?.dataset.live.split("/")[3].split("?")[0];

  function chipPayload(chip) {
    return chip.dataset.placeParticipant
      ? { participant: chip.dataset.placeParticipant }
      : { label: window.prompt("Label for the marker", chip.dataset.placeLabel) || chip.dataset.placeLabel };
  }

  async function upload(file) {
    const cid = gmCampaign();
    if (!file || !cid) return;
    flash(`Uploading ${file.name}…`, "ok");
    const form = new FormData();
    form.append("file", file);
    const r = await fetch(`/api/campaigns/${cid}/assets`, { method: "POST", body: form, credentials: "same-origin" });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) return flash(body.detail || `The upload failed (${r.status}).`);
    const name = file.name.replace(/\.[^.]+$/, "").slice(0, 60) || "Scene";
    // A new scene is the GM's until "Show to players": set it up (grid, tokens, fog) in private first.
    await command(cid, { type: "map.scene.create", name, asset: body.id, grid: { type: "square", size: 70 } });
  }

  async function deleteAsset(asset, name) {
    const cid = gmCampaign();
    if (!cid || !window.confirm(`Delete the image ${name}? Undo will not bring it back.`)) return;
    const r = await fetch(`/api/campaigns/${cid}/assets/${asset}`, { method: "DELETE", credentials: "same-origin" });
    if (!r.ok) return flash((await r.json().catch(() => ({}))).detail || `The image was not deleted (${r.status}).`);
    flash("Image deleted.", "ok");
  }

  function formPayload(form) {
    const payload = { type: form.dataset.mapForm };
    if (form.dataset.scene) payload.scene = form.dataset.scene;
    for (const field of form.elements) {
      if (!field.name) continue;
      let value = field.type === "checkbox" ? field.checked : field.value;
      if (field.type === "number") value = Number(value);
      if (value === "" && field.name === "asset") continue;
      const path = field.name.split(".");
      let target = payload;
      path.slice(0, -1).forEach((k, i) => { target[k] ??= /^\d+$/.test(path[i + 1]) ? [] : {}; target = target[k]; });
      target[path[path.length - 1]] = value;
    }
    return payload;
  }

  document.addEventListener("click", (e) => {
    const t = e.target;
    const toolButton = t.closest("[data-tool]");
    if (toolButton) {
      tool = toolButton.dataset.tool;
      corner = null;
      document.querySelectorAll("[data-tool]").forEach((b) => b.setAttribute("aria-pressed", String(b === toolButton)));
      document.body.dataset.mapTool = tool;
      return;
    }
    const stageView = t.closest("[data-stage-view]");
    if (stageView) {
      const area = stageView.closest(".map-area");
      area.dataset.view = stageView.dataset.stageView;
      sessionStorage.setItem(`fray-stage-${gmCampaign()}`, area.dataset.view);
      return;
    }
    const tab = t.closest(".side-tabs [data-tab]");
    if (tab) { tab.closest(".sidebar").dataset.active = tab.dataset.tab; return; }
    const drop = t.closest("[data-delete-asset]");
    if (drop) return void deleteAsset(drop.dataset.deleteAsset, drop.dataset.name);
    const frame = frameNow();
    if (!frame) return;
    const cid = campaignOf(frame), scene = frame.dataset.scene;
    const cmd = t.closest("[data-map-command]");
    if (cmd) return void command(cid, JSON.parse(cmd.dataset.mapCommand));
    const fog = t.closest("[data-map-fog]");
    if (fog) return void command(cid, { type: `map.fog.${fog.dataset.mapFog}`, scene });
    if (t.closest("[data-map-erase]")) return void command(cid, { type: "map.erase", scene });
    const chip = t.closest("[data-place-participant], [data-place-label]");
    if (chip) { placing = chipPayload(chip); flash("Now click the map where it goes.", "ok"); return; }
    const action = t.closest("[data-token-action]");
    if (action && selected) {
      const token = frame.querySelector(`.token[data-token="${selected}"]`);
      if (!token) return;
      const kind = action.dataset.tokenAction, size = +token.dataset.size;
      if (kind === "remove") command(cid, { type: "map.token.remove", token: selected });
      else if (kind === "locked") command(cid, { type: "map.token.set", token: selected, locked: !token.classList.contains("locked") });
      else if (kind === "hidden") command(cid, { type: "map.token.set", token: selected, hidden: !token.classList.contains("is-hidden") });
      else command(cid, { type: "map.token.set", token: selected, size: Math.max(0.5, size + (kind === "bigger" ? 1 : -1) * (size > 1 ? 1 : 0.5)) });
    }
  });

  document.addEventListener("submit", (e) => {
    const form = e.target.closest("[data-map-form]");
    if (!form) return;
    e.preventDefault();
    if (form.dataset.mapForm === "map.scene.update" && unchanged(form)) return flash("The grid is already like that.", "ok");
    const frame = frameNow();
    command(frame ? campaignOf(frame) : gmCampaign(), formPayload(form)).then((reply) => {
      if (reply && form.dataset.mapForm === "map.scene.create") form.reset(); // the next scene starts blank
      if (reply && tool === "grid") $('[data-tool="move"]')?.click(); // the grid is set: back to moving tokens
    });
  });
  document.addEventListener("input", (e) => {
    if (e.target.closest && e.target.closest(".grid-form")) previewGrid(frameNow());
  });

  document.addEventListener("dragstart", (e) => {
    const chip = e.target.closest && e.target.closest("[data-place-participant], [data-place-label]");
    if (!chip) return;
    const payload = chip.dataset.placeParticipant ? { participant: chip.dataset.placeParticipant } : { label: chip.dataset.placeLabel };
    e.dataTransfer.setData("application/x-fray-token", JSON.stringify(payload));
  });

  document.addEventListener("change", (e) => {
    if (e.target.id === "map-file") { upload(e.target.files[0]); e.target.value = ""; }
  });
  document.addEventListener("dragover", (e) => {
    if (e.target.closest && e.target.closest(".page-gm .map-area") && [...e.dataTransfer.types].includes("Files")) e.preventDefault();
  });
  document.addEventListener("drop", (e) => {
    if (!(e.target.closest && e.target.closest(".page-gm .map-area")) || !e.dataTransfer.files.length) return;
    e.preventDefault();
    upload(e.dataTransfer.files[0]);
  });

  // Pings, shared rulers and ghosts arrive on the page's socket as JSON, beside the HTML fragments.
  document.addEventListener("fray:message", (e) => {
    const text = e.detail && e.detail.message;
    if (typeof text !== "string" || !text.startsWith('{"map.') || text.startsWith('{"map.ping"')) return;
    e.preventDefault();
    const message = JSON.parse(text);
    const frame = document.querySelector('.mapframe[data-kind="scene"]');
    if (!frame) return;
    const [kind, body] = Object.entries(message)[0];
    if (body.scene !== frame.dataset.scene) return;
    if (kind === "map.ruler") {
      const g = drawRuler(frame, body.from, body.to, "shared", body.distance);
      clearTimeout(g._timer);
      g._timer = setTimeout(() => g.remove(), 2500);
    } else if (kind === "map.ghost") {
      const overlay = window.FrayFrame.overlay(frame);
      let ghost = overlay.querySelector(`[data-ghost="${body.token}"]`);
      if (!ghost) ghost = el("circle", { class: "ghost", "data-ghost": body.token, r: cellSize(frame) * 0.45 }, overlay);
      ghost.setAttribute("cx", body.x);
      ghost.setAttribute("cy", body.y);
      clearTimeout(ghost._timer);
      ghost._timer = setTimeout(() => ghost.remove(), 1500);
    }
  });

  document.addEventListener("fray:flash", (e) => flash(e.detail));
  // The GM's choice of board or scene in the map area is kept through reloads of this tab.
  const keepStageView = () => {
    const area = $(".page-gm .map-area"), kept = area && sessionStorage.getItem(`fray-stage-${gmCampaign()}`);
    if (kept) area.dataset.view = kept;
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", keepStageView); else keepStageView();
})();
