// Fray's map frame, one for every board: pan (one finger or mouse), pinch and wheel zoom, token drag
// (only the drop is a command), a ruler in the scene's units, pings, and the GM's fog and drawing tools.
// The server is the truth: every change is a command, and a live push redraws the map for each viewer.
(() => {
  "use strict";
  const views = new Map(); // "scene:page" -> [x, y, w, h], kept across live pushes
  const TAP = 8; // pixels a pointer may wander and still be a tap
  let tool = "move";
  let selected = null; // token id
  let placing = null; // a tray chip clicked, waiting for a click on the map

  const $ = (sel, root = document) => root.querySelector(sel);
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

  async function post(url, body) {
    const r = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
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

  // --- geometry -------------------------------------------------------------------------------
  function svgPoint(svg, clientX, clientY) {
    const p = new DOMPoint(clientX, clientY).matrixTransform(svg.getScreenCTM().inverse());
    return [p.x, p.y];
  }
  function hexCell(g, x, y) {
    const r = g.size / Math.sqrt(3);
    const px = x - g.offset[0] - g.size / 2, py = y - g.offset[1] - r;
    let q = ((Math.sqrt(3) / 3) * px - py / 3) / r, rr = ((2 / 3) * py) / r, s = -q - rr;
    let [a, b, c] = [Math.round(q), Math.round(rr), Math.round(s)];
    const [da, db, dc] = [Math.abs(a - q), Math.abs(b - rr), Math.abs(c - s)];
    if (da > db && da > dc) a = -b - c; else if (db > dc) b = -a - c;
    return [a, b];
  }
  function steps(g, p, q) {
    if (g.type === "hex") {
      const [q1, r1] = hexCell(g, ...p), [q2, r2] = hexCell(g, ...q);
      const dq = q2 - q1, dr = r2 - r1;
      return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
    }
    if (g.type === "none") return Math.hypot(q[0] - p[0], q[1] - p[1]) / g.size;
    const cell = (v) => [Math.floor((v[0] - g.offset[0]) / g.size), Math.floor((v[1] - g.offset[1]) / g.size)];
    const [x1, y1] = cell(p), [x2, y2] = cell(q);
    const dx = Math.abs(x2 - x1), dy = Math.abs(y2 - y1), diag = Math.min(dx, dy), straight = Math.abs(dx - dy);
    if (g.diagonals === "5-10-5") return straight + diag + Math.floor(diag / 2);
    if (g.diagonals === "straight") return Math.hypot(dx, dy);
    return diag + straight;
  }
  function distanceText(g, p, q) {
    const d = steps(g, p, q) * g.per_cell;
    return `${Math.round(d * 10) / 10} ${g.unit}`;
  }

  // --- the view box: pan and zoom ----------------------------------------------------------------
  function setView(frame, vb) {
    const W = +frame.dataset.width, H = +frame.dataset.height;
    const w = Math.min(Math.max(vb[2], W / 20), W * 4), h = (w * vb[3]) / vb[2];
    const box = [vb[0], vb[1], w, h];
    views.set(`${frame.dataset.scene}:${frame.dataset.page}`, box);
    $("svg", frame).setAttribute("viewBox", box.join(" "));
  }
  function getView(frame) {
    return $("svg", frame).getAttribute("viewBox").split(" ").map(Number);
  }
  function zoomAt(frame, factor, [x, y]) {
    const [vx, vy, vw, vh] = getView(frame);
    setView(frame, [x - (x - vx) * factor, y - (y - vy) * factor, vw * factor, vh * factor]);
  }

  // --- overlays: pings, rulers, ghosts, shapes being drawn ----------------------------------------
  const NS = "http://www.w3.org/2000/svg";
  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }
  const cellSize = (frame) => JSON.parse(frame.dataset.grid).size;
  function showPing(frame, x, y, by) {
    const g = el("g", { class: "ping", transform: `translate(${x} ${y})` }, $(".map-overlay", frame));
    el("circle", { r: cellSize(frame) * 0.6 }, g);
    if (by) el("text", { y: -cellSize(frame) * 0.8 }, g).textContent = by;
    setTimeout(() => g.remove(), 2200);
  }
  function drawRuler(frame, from, to, id = "ruler-local") {
    const overlay = $(".map-overlay", frame);
    let g = overlay.querySelector(`[data-ruler="${id}"]`);
    if (!g) g = el("g", { class: "ruler", "data-ruler": id }, overlay);
    g.innerHTML = "";
    el("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1] }, g);
    const label = el("text", { x: to[0] + 8, y: to[1] - 8 }, g);
    label.textContent = distanceText(JSON.parse(frame.dataset.grid), from, to);
    return g;
  }
  function shapeOverlay(frame, kind) {
    const overlay = $(".map-overlay", frame);
    overlay.querySelectorAll(".shape-draft").forEach((n) => n.remove());
    return el(kind, { class: "shape-draft" }, overlay);
  }

  // --- tokens ------------------------------------------------------------------------------------
  function select(frame, id) {
    selected = id;
    frame.querySelectorAll(".token").forEach((t) => t.classList.toggle("selected", t.dataset.token === id));
    const actions = $("#map-token-actions");
    if (!actions) return;
    const token = id && frame.querySelector(`.token[data-token="${id}"]`);
    actions.hidden = !token || !isGm(frame);
    if (token) {
      $(".selected-name", actions).textContent = token.dataset.name;
      $('[data-token-action="locked"]', actions).textContent = token.classList.contains("locked") ? "Unlock" : "Lock";
      $('[data-token-action="hidden"]', actions).textContent = token.classList.contains("is-hidden") ? "Show" : "Hide";
    }
  }
  function moveToken(frame, token, x, y, free) {
    token.setAttribute("transform", `translate(${x} ${y})`);
    return command(campaignOf(frame), { type: "map.token.move", token: token.dataset.token, x, y, free }).then(
      (reply) => { if (!reply) token.setAttribute("transform", `translate(${token.dataset.x} ${token.dataset.y})`); },
    );
  }

  // --- gestures ----------------------------------------------------------------------------------
  function setup(frame) {
    if (frame.dataset.ready) return;
    frame.dataset.ready = "1";
    const svg = $("svg", frame);
    const kept = views.get(`${frame.dataset.scene}:${frame.dataset.page}`);
    if (kept) setView(frame, kept);
    if (selected) select(frame, selected);
    const pointers = new Map();
    let gesture = null;
    let polygon = [];

    svg.addEventListener("pointerdown", (e) => {
      svg.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const mid = svgPoint(svg, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        if (gesture && gesture.kind === "drag") gesture.token.setAttribute("transform", `translate(${gesture.x0} ${gesture.y0})`);
        gesture = { kind: "pinch", d0: Math.hypot(a[0] - b[0], a[1] - b[1]), vb0: getView(frame), mid };
        return;
      }
      if (pointers.size > 2) return;
      const at = svgPoint(svg, e.clientX, e.clientY);
      const token = e.target.closest(".token");
      const base = { start: [e.clientX, e.clientY], at, moved: false };
      if (token && tool === "move") {
        select(frame, token.dataset.token);
        if (token.classList.contains("movable")) {
          gesture = { ...base, kind: "drag", token, x0: +token.dataset.x, y0: +token.dataset.y };
          return;
        }
      }
      if (tool === "ruler") gesture = { ...base, kind: "ruler" };
      else if ((tool === "reveal" || tool === "cover") && isGm(frame)) gesture = { ...base, kind: "rect", draft: shapeOverlay(frame, "rect") };
      else if (tool === "draw" && isGm(frame)) gesture = { ...base, kind: "draw", points: [at], draft: shapeOverlay(frame, "polyline") };
      else gesture = { ...base, kind: "pan", vb0: getView(frame) };
    });

    svg.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId) || !gesture) return;
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (gesture.kind === "pinch" && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
        const [vx, vy, vw, vh] = gesture.vb0, f = gesture.d0 / d, [mx, my] = gesture.mid;
        setView(frame, [mx - (mx - vx) * f, my - (my - vy) * f, vw * f, vh * f]);
        return;
      }
      if (Math.hypot(e.clientX - gesture.start[0], e.clientY - gesture.start[1]) > TAP) gesture.moved = true;
      if (!gesture.moved) return;
      const at = svgPoint(svg, e.clientX, e.clientY);
      if (gesture.kind === "pan") {
        const scale = gesture.vb0[2] / svg.getBoundingClientRect().width;
        const [vx, vy, vw, vh] = gesture.vb0;
        setView(frame, [vx - (e.clientX - gesture.start[0]) * scale, vy - (e.clientY - gesture.start[1]) * scale, vw, vh]);
      } else if (gesture.kind === "drag") {
        gesture.token.setAttribute("transform", `translate(${at[0]} ${at[1]})`);
        gesture.to = at;
        const now = Date.now();
        if (!gesture.sent || now - gesture.sent > 150) {
          gesture.sent = now;
          signal(campaignOf(frame), { "map.ghost": { token: gesture.token.dataset.token, x: at[0], y: at[1] } });
        }
      } else if (gesture.kind === "ruler") {
        drawRuler(frame, gesture.at, at);
        gesture.to = at;
        const now = Date.now();
        if ($("#map-share-ruler")?.checked && isGm(frame) && (!gesture.sent || now - gesture.sent > 200)) {
          gesture.sent = now;
          signal(campaignOf(frame), { "map.ruler": { from: gesture.at, to: at } });
        }
      } else if (gesture.kind === "rect") {
        const [x0, y0] = gesture.at;
        gesture.rect = [Math.min(x0, at[0]), Math.min(y0, at[1]), Math.abs(at[0] - x0), Math.abs(at[1] - y0)];
        const [x, y, w, h] = gesture.rect;
        Object.entries({ x, y, width: w, height: h }).forEach(([k, v]) => gesture.draft.setAttribute(k, v));
      } else if (gesture.kind === "draw") {
        gesture.points.push(at);
        gesture.draft.setAttribute("points", gesture.points.map((p) => p.join(",")).join(" "));
      }
    });

    const end = (e) => {
      pointers.delete(e.pointerId);
      if (!gesture) return;
      const g = gesture;
      if (g.kind === "pinch") { if (pointers.size === 0) gesture = null; return; }
      gesture = null;
      const cid = campaignOf(frame), scene = frame.dataset.scene;
      const at = svgPoint(svg, e.clientX, e.clientY);
      if (e.type === "pointercancel") {
        if (g.kind === "drag") g.token.setAttribute("transform", `translate(${g.x0} ${g.y0})`);
        return;
      }
      if (!g.moved) return tap(frame, at, e);
      if (g.kind === "drag" && g.to) moveToken(frame, g.token, Math.round(g.to[0] * 10) / 10, Math.round(g.to[1] * 10) / 10, e.altKey);
      else if (g.kind === "ruler") setTimeout(() => $(".map-overlay .ruler", frame)?.remove(), 2500);
      else if (g.kind === "rect" && g.rect && g.rect[2] > 2 && g.rect[3] > 2) {
        command(cid, { type: tool === "cover" ? "map.fog.cover" : "map.fog.reveal", scene, rect: g.rect.map((v) => Math.round(v)) });
      } else if (g.kind === "draw" && g.points.length > 1) {
        command(cid, { type: "map.draw", scene, points: g.points.filter((_, i) => i % 2 === 0 || i === g.points.length - 1).map((p) => p.map(Math.round)) });
      }
      frame.querySelectorAll(".shape-draft").forEach((n) => n.remove());
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);

    function tap(frame, at, e) {
      const cid = campaignOf(frame), scene = frame.dataset.scene;
      if (placing && isGm(frame)) {
        command(cid, { type: "map.token.place", scene, x: at[0], y: at[1], free: e.altKey, ...placing });
        placing = null;
        return;
      }
      if (tool === "polygon" && isGm(frame)) {
        polygon.push(at.map(Math.round));
        shapeOverlay(frame, "polygon").setAttribute("points", polygon.map((p) => p.join(",")).join(" "));
        return;
      }
      if (e.target.closest(".token")) return;
      select(frame, null);
      if (tool === "ping" || tool === "move") {
        showPing(frame, at[0], at[1]);
        signal(cid, { "map.ping": { x: at[0], y: at[1] } });
      }
    }

    svg.addEventListener("dblclick", (e) => {
      if (tool !== "polygon" || polygon.length < 3) return;
      e.preventDefault();
      command(campaignOf(frame), { type: "map.fog.reveal", scene: frame.dataset.scene, polygon });
      polygon = [];
      frame.querySelectorAll(".shape-draft").forEach((n) => n.remove());
    });

    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      zoomAt(frame, e.deltaY > 0 ? 1.15 : 1 / 1.15, svgPoint(svg, e.clientX, e.clientY));
    }, { passive: false });

    frame.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        polygon = [];
        frame.querySelectorAll(".shape-draft").forEach((n) => n.remove());
        if (gesture && gesture.kind === "drag") gesture.token.setAttribute("transform", `translate(${gesture.x0} ${gesture.y0})`);
        gesture = null;
        select(frame, null);
        return;
      }
      const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      const token = selected && frame.querySelector(`.token[data-token="${selected}"].movable`);
      if (!arrows[e.key] || !token) return;
      e.preventDefault();
      const step = cellSize(frame), [dx, dy] = arrows[e.key];
      moveToken(frame, token, +token.dataset.x + dx * step, +token.dataset.y + dy * step, false);
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
      const at = svgPoint(svg, e.clientX, e.clientY);
      command(campaignOf(frame), { type: "map.token.place", scene: frame.dataset.scene, x: at[0], y: at[1], free: e.altKey, ...JSON.parse(chip) });
    });
  }

  // --- the GM's tools outside the frame ----------------------------------------------------------
  const frameNow = () => $(".page-gm .mapframe") || $(".mapframe");
  const gmCampaign = () => $("[ws-connect]")?.getAttribute("ws-connect").split("/")[3].split("?")[0];

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
    const first = !$(".scene-list li");
    await command(cid, { type: "map.scene.create", name, asset: body.id, grid: { type: "square", size: 70 }, show: first });
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
      document.querySelectorAll("[data-tool]").forEach((b) => b.setAttribute("aria-pressed", String(b === toolButton)));
      document.body.dataset.mapTool = tool;
      return;
    }
    const tab = t.closest(".side-tabs [data-tab]");
    if (tab) { tab.closest(".sidebar").dataset.active = tab.dataset.tab; return; }
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
    const frame = frameNow();
    command(frame ? campaignOf(frame) : gmCampaign(), formPayload(form));
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
  document.addEventListener("htmx:wsBeforeMessage", (e) => {
    const text = e.detail && e.detail.message;
    if (typeof text !== "string" || !text.startsWith('{"map.')) return;
    e.preventDefault();
    const message = JSON.parse(text);
    const frame = document.querySelector(".mapframe");
    if (!frame) return;
    const [kind, body] = Object.entries(message)[0];
    if (body.scene !== frame.dataset.scene) return;
    if (kind === "map.ping") showPing(frame, body.x, body.y, body.by);
    else if (kind === "map.ruler") {
      const g = drawRuler(frame, body.from, body.to, "shared");
      clearTimeout(g._timer);
      g._timer = setTimeout(() => g.remove(), 2500);
    } else if (kind === "map.ghost") {
      const overlay = $(".map-overlay", frame);
      let ghost = overlay.querySelector(`[data-ghost="${body.token}"]`);
      if (!ghost) ghost = el("circle", { class: "ghost", "data-ghost": body.token, r: cellSize(frame) * 0.45 }, overlay);
      ghost.setAttribute("cx", body.x);
      ghost.setAttribute("cy", body.y);
      clearTimeout(ghost._timer);
      ghost._timer = setTimeout(() => ghost.remove(), 1500);
    }
  });

  // Live pushes replace the map's block: set up each new frame, keeping its pan and zoom.
  const setupAll = () => document.querySelectorAll(".mapframe").forEach(setup);
  new MutationObserver(setupAll).observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", setupAll);
  setupAll();
})();
