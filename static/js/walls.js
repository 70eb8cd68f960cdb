// Sight from walls on the map (issue 29): the GM's wall, door, light and eraser tools, the vision form,
// "see as" a player, a token's sight fields, and a phone's tap on a door. Gestures come from map.js's
// frame (each tool is asked first through window.FrayMapTools); every change is a command, and the live
// push redraws the walls, lights and each phone's sight from what the server decided.
(() => {
  "use strict";
  const DOUBLE_MS = 450, DOUBLE_PX = 14; // two taps this close in time and place end a wall
  const $ = (sel, root = document) => root.querySelector(sel);
  const newId = () => (crypto.randomUUID ? crypto.randomUUID() : String(Date.now() + Math.random()));
  const isGm = (frame) => frame.hasAttribute("data-gm");
  const previewing = () => !!$(".preview-banner");
  const el = (name, attrs, parent) => window.FrayFrame.el(name, attrs, parent);
  const gridOf = (frame) => JSON.parse(frame.dataset.grid);
  const frameNow = () => $('.page-gm .mapframe[data-kind="scene"]') || $('.mapframe[data-kind="scene"]');
  // A refusal in the page's own message box (map.js draws it, as for every map command).
  const flash = (text) => document.dispatchEvent(new CustomEvent("fray:flash", { detail: text }));

  function say(text) {
    // A short "done" line in the same box, styled as ok.
    const box = $("#flash");
    if (!box) return;
    box.innerHTML = "";
    const p = document.createElement("p");
    p.className = "ok";
    p.textContent = text;
    box.appendChild(p);
    box.classList.add("show");
    setTimeout(() => { p.remove(); if (!box.childElementCount) box.classList.remove("show"); }, 3000);
  }

  async function command(cid, payload) {
    const r = await fetch(`/api/campaigns/${cid}/commands`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ command_id: newId(), ...payload }),
    });
    if (!r.ok) {
      let detail = `The server said ${r.status}.`;
      try { detail = (await r.json()).detail || detail; } catch (_) { /* not JSON */ }
      flash(detail);
      return null;
    }
    return r.status === 204 ? {} : r.json();
  }

  // --- snapping: a wall's corners go to the grid's corners unless Alt is held or Snap is off ---------
  function snap(frame, p, free) {
    const g = gridOf(frame), round = (v) => Math.round(v * 10) / 10;
    if (free || g.type === "none" || !($("#wall-snap")?.checked ?? true)) return p.map(round);
    const [ox, oy] = g.offset, s = g.size;
    if (g.type === "square") return [ox + Math.round((p[0] - ox) / s) * s, oy + Math.round((p[1] - oy) / s) * s].map(round);
    // A hex grid: the nearest corner of a hex, as map.html's pattern draws them (a tile s wide, 3r high).
    const r = s / Math.sqrt(3), corners = [[s / 2, 0], [s, r / 2], [s, 1.5 * r], [s / 2, 2 * r], [0, 1.5 * r], [0, r / 2]];
    const i0 = Math.floor((p[0] - ox) / s), j0 = Math.floor((p[1] - oy) / (3 * r));
    let best = p, d = Infinity;
    for (let i = i0 - 1; i <= i0 + 1; i++) {
      for (let j = j0 - 1; j <= j0 + 1; j++) {
        for (const [cx, cy] of corners) {
          const x = ox + i * s + cx, y = oy + j * 3 * r + cy, dd = Math.hypot(x - p[0], y - p[1]);
          if (dd < d) { d = dd; best = [x, y]; }
        }
      }
    }
    return best.map(round);
  }

  // --- the wall being drawn: kept here through live pushes, drawn in the frame's overlay ---------------
  let draft = null; // { scene, kind, points }
  let lastTap = null; // { t, x, y } on the screen
  let hover = null;

  const kindNow = (tool) => (tool === "door" ? "door" : $("#wall-kind")?.value || "wall");
  function drawDraft(frame) {
    const overlay = window.FrayFrame.overlay(frame);
    overlay.querySelectorAll(".wall-draft").forEach((n) => n.remove());
    document.querySelectorAll("[data-wall-end], [data-wall-cancel]").forEach((b) => { b.hidden = !draft; });
    if (!draft || draft.scene !== frame.dataset.scene) return;
    const g = el("g", { class: `wall-draft kind-${draft.kind}` }, overlay);
    const pts = hover ? [...draft.points, hover] : draft.points;
    el("polyline", { points: pts.map((p) => p.join(",")).join(" ") }, g);
    draft.points.forEach(([x, y]) => el("circle", { cx: x, cy: y, r: gridOf(frame).size * 0.08 }, g));
  }
  function cancelDraft() {
    draft = null;
    hover = null;
    const frame = frameNow();
    if (frame) drawDraft(frame);
  }
  async function endDraft(frame) {
    if (!draft) return;
    const { scene, kind } = draft;
    const points = draft.points.filter((p, i, all) => i === 0 || p[0] !== all[i - 1][0] || p[1] !== all[i - 1][1]);
    cancelDraft();
    if (points.length < 2) return flash("A wall needs two corners at least: tap where it starts and where it ends.");
    const body = { type: "map.wall.add", scene, points, kind };
    if (kind === "door") body.closed = true;
    await command(frame.dataset.campaign, body);
  }

  function addCorner(frame, at, e, tool) {
    const p = snap(frame, at, e.altKey);
    const now = Date.now(), screen = [e.clientX, e.clientY];
    const twice = lastTap && now - lastTap.t < DOUBLE_MS && Math.hypot(screen[0] - lastTap.x, screen[1] - lastTap.y) < DOUBLE_PX;
    lastTap = { t: now, x: screen[0], y: screen[1] };
    if (draft && (draft.scene !== frame.dataset.scene || draft.kind !== kindNow(tool))) draft = null;
    if (twice && draft) { lastTap = null; endDraft(frame); return; } // a double-click or double-tap ends it
    if (!draft) draft = { scene: frame.dataset.scene, kind: kindNow(tool), points: [] };
    draft.points.push(p);
    // The door tool draws a door from its two ends.
    if (tool === "door" && draft.points.length === 2) { lastTap = null; endDraft(frame); return; }
    drawDraft(frame);
  }

  function toggleDoor(frame, icon, lock) {
    const body = { type: "map.door.set", wall: icon.dataset.door, open: icon.dataset.open === "true" };
    if (lock) {
      body.locked = !icon.classList.contains("locked");
      if (body.locked) body.open = false; // a locked door is shut
    } else body.open = !body.open;
    return command(frame.dataset.campaign, body);
  }

  const cells = (id, frame) => Math.max(0, +($(id)?.value || 0)) * gridOf(frame).size;

  function tap(frame, at, e, target, tool) {
    if (previewing()) return true; // the GM looking at a phone's screen only looks
    const door = target.closest && target.closest(".door-icon");
    if (!isGm(frame)) {
      if (!door || frame.dataset.page !== "player") return undefined;
      toggleDoor(frame, door, false); // a refusal (too far, locked, not allowed) shows as the flash
      return true;
    }
    const cid = frame.dataset.campaign, scene = frame.dataset.scene;
    if (tool === "wall" || (tool === "door" && !door)) { addCorner(frame, at, e, tool); return true; }
    if (tool === "door" && door) { toggleDoor(frame, door, true); return true; }
    if (tool === "light") {
      const bright = cells("#light-bright", frame), dim = Math.max(cells("#light-dim", frame), bright);
      if (!(dim > 0)) { flash("Give the light a dim radius above 0 cells."); return true; }
      command(cid, { type: "map.light.add", scene, x: Math.round(at[0] * 10) / 10, y: Math.round(at[1] * 10) / 10,
                     bright, dim, color: $("#light-color")?.value || "#ffd27f" });
      return true;
    }
    if (tool === "wall-erase") {
      const wall = door ? door.dataset.door : target.closest && target.closest("[data-wall]")?.dataset.wall;
      const light = target.closest && target.closest("[data-light]")?.dataset.light;
      if (wall) command(cid, { type: "map.wall.remove", wall });
      else if (light) command(cid, { type: "map.light.remove", light });
      else say("Click a wall, a door or a light to take it away.");
      return true;
    }
    if (door) { toggleDoor(frame, door, false); return true; } // any other tool: open or close it
    return undefined;
  }

  function claim(frame, e, at, tool) {
    if (previewing()) return null; // no token drags from the preview: a drag pans
    if (isGm(frame) && e.target.closest && e.target.closest(".door-icon") && tool === "move") return null;
    return undefined;
  }

  function key(frame, e) {
    const door = e.target.closest && e.target.closest(".door-icon");
    if (door && (e.key === "Enter" || e.key === " ") && !previewing()) {
      e.preventDefault();
      toggleDoor(frame, door, false);
      return true;
    }
    return draft && ["Escape", "Enter", "Backspace"].includes(e.key) ? true : undefined; // the page's below
  }

  // The wall being drawn hears the keyboard wherever the focus is (a click on the map does not focus it),
  // unless someone is typing in a field.
  document.addEventListener("keydown", (e) => {
    const frame = frameNow();
    if (!draft || !frame || (e.target.closest && e.target.closest("input, select, textarea"))) return;
    if (e.key === "Escape") cancelDraft();
    else if (e.key === "Enter") endDraft(frame);
    else if (e.key === "Backspace") { // the last corner taken back
      draft.points.pop();
      if (!draft.points.length) cancelDraft(); else drawDraft(frame);
    } else return;
    e.preventDefault();
  });

  // A phone marks the doors next to one of its own tokens (within 1.5 cells): those its tap can open. The
  // server judges every tap; this only says which doors to try.
  function markNearDoors(frame) {
    const reach = gridOf(frame).size * 1.6;
    const mine = [...frame.querySelectorAll(".token.mine")].map((t) => [+t.dataset.x, +t.dataset.y]);
    frame.querySelectorAll(".map-vision-doors .door-icon").forEach((d) => {
      const [x, y] = (d.getAttribute("transform").match(/-?[\d.]+/g) || []).map(Number);
      d.classList.toggle("near", mine.some(([tx, ty]) => Math.hypot(tx - x, ty - y) <= reach));
    });
  }

  function setup(frame, svg) {
    drawDraft(frame);
    if (!isGm(frame)) { markNearDoors(frame); return; }
    // With a mouse, the wall being drawn follows the pointer to where its next corner would go.
    svg.addEventListener("pointermove", (e) => {
      if (!draft || e.pointerType !== "mouse" || e.buttons) return;
      hover = snap(frame, window.FrayFrame.point(svg, e.clientX, e.clientY), e.altKey);
      drawDraft(frame);
    });
    svg.addEventListener("pointerleave", () => { if (hover) { hover = null; drawDraft(frame); } });
  }

  // The selected token's sight in the token actions: its fields show what it has now (in cells).
  let selectedToken = null;
  function select(frame, id) {
    selectedToken = id;
    frame.querySelectorAll(".token-sight-of").forEach((c) => c.classList.toggle("selected", c.dataset.token === id));
    const form = $("[data-token-sight]");
    if (!form || !isGm(frame)) return undefined;
    const s = id && frame.querySelector(`.token-sight-of[data-token="${id}"]`), size = gridOf(frame).size;
    const range = s && s.dataset.range ? +s.dataset.range / size : "";
    form.elements.range.value = range === "" ? "" : Math.round(range * 10) / 10;
    form.elements.darkvision.value = s && s.dataset.darkvision ? Math.round((+s.dataset.darkvision / size) * 10) / 10 : 0;
    return undefined;
  }

  (window.FrayMapTools = window.FrayMapTools || []).push({ tap, claim, key, setup, select });

  // --- outside the frame: tool changes, End wall, the vision forms, "see as" -------------------------
  document.addEventListener("click", (e) => {
    const t = e.target;
    if (!t.closest) return;
    const toolButton = t.closest("[data-tool]");
    if (toolButton) {
      if (!["wall", "door"].includes(toolButton.dataset.tool)) cancelDraft();
      return;
    }
    const frame = frameNow();
    if (t.closest("[data-wall-end]")) { if (frame) endDraft(frame); return; }
    if (t.closest("[data-wall-cancel]")) { cancelDraft(); return; }
    const reset = t.closest("[data-explored-reset]");
    if (reset && frame) {
      if (window.confirm("Forget what the players have explored on this scene? They see only what their tokens see now.")) {
        command(frame.dataset.campaign, { type: "map.explored.reset", scene: reset.dataset.exploredReset }).then((r) => r && say("Explored areas reset."));
      }
      return;
    }
    if (t.closest("[data-see-as-back]")) { seeAs(""); return; }
  });

  document.addEventListener("submit", (e) => {
    const form = e.target.closest && e.target.closest("[data-vision-form], [data-token-sight]");
    if (!form) return;
    e.preventDefault();
    const frame = frameNow();
    if (!frame) return;
    if (form.hasAttribute("data-token-sight")) {
      if (!selectedToken) return flash("Select a token first.");
      const size = gridOf(frame).size, range = form.elements.range.value;
      const sight = { range: range === "" || +range <= 0 ? null : +range * size, darkvision: Math.max(0, +form.elements.darkvision.value || 0) * size };
      command(frame.dataset.campaign, { type: "map.token.set", token: selectedToken, sight }).then((r) => r && say("Sight set."));
      return;
    }
    const body = { type: form.dataset.visionForm };
    if (form.dataset.scene) body.scene = form.dataset.scene;
    // The campaign's settings go only as changed here: the GM's view does not say what they are now,
    // so a box left alone must not send its guess. The scene's vision and light it does say.
    const settings = form.dataset.visionForm === "map.settings";
    for (const f of form.elements) {
      if (!f.name || (settings && f.checked === f.defaultChecked)) continue;
      body[f.name] = f.type === "checkbox" ? f.checked : f.value;
    }
    if (settings && Object.keys(body).length === 1) return say("Nothing changed.");
    command(frame.dataset.campaign, body).then((r) => r && say("Saved."));
  });

  // "See as": the GM's map area shows one player's page exactly as the server renders it for that seat
  // (the page's own `?as=` preview, its own live socket): no filtering here, only a window onto it.
  function seeAs(seat) {
    const area = $(".page-gm .map-area");
    if (!area) return;
    area.querySelector(".see-as-view")?.remove();
    const select = $("#see-as");
    if (!seat) {
      delete area.dataset.seeAs;
      if (select) select.value = "";
      return;
    }
    const name = select ? [...select.options].find((o) => o.value === seat)?.textContent : seat;
    const box = document.createElement("div");
    box.className = "see-as-view";
    const bar = document.createElement("p");
    bar.className = "see-as-bar";
    bar.setAttribute("role", "status");
    const words = bar.appendChild(document.createElement("span"));
    words.append("Seeing as ");
    words.appendChild(document.createElement("b")).textContent = name;
    words.append(": exactly what this phone is sent.");
    const back = bar.appendChild(document.createElement("button"));
    back.type = "button";
    back.className = "small";
    back.dataset.seeAsBack = "";
    back.textContent = "Back to the GM's view";
    const frame = document.createElement("iframe");
    frame.title = `${name}'s phone`;
    frame.src = `play?as=${encodeURIComponent(seat)}`;
    box.append(bar, frame);
    area.dataset.seeAs = seat;
    area.appendChild(box);
  }
  document.addEventListener("change", (e) => {
    if (e.target.id === "see-as") seeAs(e.target.value);
  });
  // The preview inside "see as": its own "back to the GM console" link closes the view instead.
  document.addEventListener("click", (e) => {
    const link = e.target.closest && e.target.closest(".preview-banner a");
    const back = link && window.parent !== window && window.parent.document.querySelector("[data-see-as-back]");
    if (back) { e.preventDefault(); back.click(); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && $(".page-gm .map-area[data-see-as]") && !e.target.closest?.("input, select, textarea")) seeAs("");
  });
})();
