// Token pictures and colours: the picture dialog (choose a file or, for the GM, one of the campaign's
// images; frame it in the circle by dragging and zooming; save), and the GM's colour for a token.
// The server keeps the frame in the token (`map.token.picture`) and sends every screen only that square.
(() => {
  "use strict";
  const $ = (sel, root = document) => root.querySelector(sel);
  const DEFAULT_COLOR = "#3d7dd8"; // "by its side" (app/realtime/looks.py)
  const round1 = (v) => Math.round(v * 10) / 10;
  const campaign = () => $(".mapframe[data-campaign]")?.dataset.campaign;

  function say(text, kind = "error") {
    const msg = $("[data-picture-msg]");
    if (msg && $("#picture-dialog")?.open) { msg.textContent = text; msg.className = `form-msg ${kind}`; return; }
    const box = $("#flash");
    if (!box) return;
    const p = document.createElement("p");
    p.className = kind;
    p.textContent = text;
    box.appendChild(p);
    box.classList.add("show");
    setTimeout(() => { p.remove(); if (!box.childElementCount) box.classList.remove("show"); }, 4000);
  }

  async function send(url, init) {
    const r = await fetch(url, { credentials: "same-origin", ...init });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { say(body.detail || `The server said ${r.status}.`); return null; }
    return body;
  }
  const command = (payload) => send(`/api/campaigns/${campaign()}/commands`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ command_id: crypto.randomUUID ? crypto.randomUUID() : String(Math.random()), ...payload }),
  });

  // --- the frame: the picture under a circle, dragged and zoomed -----------------------------------
  const state = { token: null, image: null, w: 0, h: 0, zoom: 1, x: 0, y: 0 };
  const box = () => $("[data-picture-frame]");
  const side = () => box().clientWidth || 240; // CSS px of the square the circle sits in
  const scale = () => (state.zoom * side()) / Math.min(state.w, state.h); // CSS px per picture px
  const cropSize = () => side() / scale();

  function clamp() {
    const size = cropSize();
    state.x = Math.min(Math.max(0, state.x), Math.max(0, state.w - size));
    state.y = Math.min(Math.max(0, state.y), Math.max(0, state.h - size));
  }
  function draw() {
    const img = $("img", box());
    const empty = $(".pic-empty", box());
    img.hidden = !state.image;
    empty.hidden = !!state.image;
    $("[data-picture-save]").disabled = !state.image;
    $("[data-picture-zoom]").disabled = !state.image;
    if (!state.image) return;
    clamp();
    const s = scale();
    Object.assign(img.style, {
      width: `${state.w * s}px`, height: `${state.h * s}px`,
      transform: `translate(${-state.x * s}px, ${-state.y * s}px)`,
    });
  }
  function show(image, url, crop) {
    const img = $("img", box());
    img.onload = () => {
      state.image = image;
      state.w = img.naturalWidth;
      state.h = img.naturalHeight;
      const full = Math.min(state.w, state.h);
      state.zoom = crop ? Math.min(5, Math.max(1, full / crop.size)) : 1;
      state.x = crop ? crop.x : (state.w - full) / 2;
      state.y = crop ? crop.y : (state.h - full) / 2;
      $("[data-picture-zoom]").value = String(state.zoom);
      draw();
    };
    img.onerror = () => say("That picture could not be shown.");
    img.src = url;
  }

  function open(token) {
    const dialog = $("#picture-dialog");
    if (!dialog || !token) return;
    const body = $(".token-body", token);
    state.token = token.dataset.token;
    state.image = null;
    $(".picture-for", dialog).textContent = token.dataset.name || "the token";
    $("[data-picture-msg]").textContent = "";
    $("[data-picture-remove]").disabled = !body?.dataset.picture;
    $("img", box()).removeAttribute("src");
    draw();
    const cid = campaign();
    if (body?.dataset.image) {
      show(body.dataset.image, `/api/campaigns/${cid}/pictures/${body.dataset.image}`, JSON.parse(body.dataset.crop || "null"));
    } else if (body?.dataset.picture) {
      $(".pic-empty", box()).textContent = "It has a picture: choose a file to give it another.";
    } else {
      $(".pic-empty", box()).textContent = "No picture yet: choose one.";
    }
    gallery(cid);
    dialog.showModal();
  }

  async function gallery(cid) {
    const holder = $("[data-picture-gallery]");
    if (!holder) return;
    const view = await send(`/api/campaigns/${cid}`, {});
    holder.replaceChildren();
    for (const a of view?.map?.assets || []) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "ghost thumb";
      b.dataset.pictureAsset = a.id;
      b.title = a.name || a.id.slice(0, 8);
      const img = document.createElement("img");
      img.loading = "lazy";
      img.alt = b.title;
      img.src = `/api/campaigns/${cid}/pictures/${a.id}`;
      b.appendChild(img);
      holder.appendChild(b);
    }
    if (!holder.childElementCount) holder.textContent = "No images yet.";
  }

  async function upload(file) {
    if (!file) return;
    say(`Uploading ${file.name}…`, "ok");
    const form = new FormData();
    form.append("file", file);
    const body = await send(`/api/campaigns/${campaign()}/pictures`, { method: "POST", body: form });
    if (!body) return;
    say("Drag the picture and zoom to frame it, then Save.", "ok");
    show(body.id, body.url, null);
  }

  async function save(remove) {
    const payload = { type: "map.token.picture", token: state.token, image: remove ? null : state.image };
    if (!remove) {
      clamp();
      const size = Math.min(cropSize(), state.w, state.h);
      payload.crop = { x: round1(state.x), y: round1(state.y), size: Math.floor(size * 10) / 10 };
    }
    if (await command(payload)) $("#picture-dialog").close();
  }

  // Dragging the picture in the frame: one finger or a mouse; the slider zooms about the middle.
  let drag = null;
  document.addEventListener("pointerdown", (e) => {
    const frame = e.target.closest && e.target.closest("[data-picture-frame]");
    if (!frame || !state.image) return;
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
    frame.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  document.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const s = scale();
    state.x -= (e.clientX - drag.x) / s;
    state.y -= (e.clientY - drag.y) / s;
    drag.x = e.clientX;
    drag.y = e.clientY;
    draw();
  });
  const stop = (e) => { if (drag && e.pointerId === drag.id) drag = null; };
  document.addEventListener("pointerup", stop);
  document.addEventListener("pointercancel", stop);

  document.addEventListener("input", (e) => {
    if (!e.target.matches("[data-picture-zoom]") || !state.image) return;
    const before = cropSize();
    state.zoom = +e.target.value;
    const after = cropSize();
    state.x += (before - after) / 2;
    state.y += (before - after) / 2;
    draw();
  });

  document.addEventListener("change", (e) => {
    const t = e.target;
    if (t.matches("[data-picture-file]")) { upload(t.files[0]); t.value = ""; return; }
    if (t.matches("[data-token-color]")) {
      const token = $(".mapframe .token.selected");
      if (token) command({ type: "map.token.set", token: token.dataset.token, color: t.value });
    }
  });

  document.addEventListener("click", (e) => {
    const t = e.target.closest ? e.target : null;
    if (!t) return;
    const opener = t.closest("[data-picture-token]");
    if (opener) {
      const id = opener.dataset.pictureToken;
      const token = id ? $(`.mapframe .token[data-token="${id}"]`) : $(".mapframe .token.selected");
      open(token);
      return;
    }
    const pick = t.closest("[data-picture-asset]");
    if (pick) {
      pick.closest("details").open = false;
      show(pick.dataset.pictureAsset, `/api/campaigns/${campaign()}/pictures/${pick.dataset.pictureAsset}`, null);
      return;
    }
    if (t.closest("[data-picture-save]")) return void save(false);
    if (t.closest("[data-picture-remove]")) return void save(true);
    if (t.closest("[data-token-color-reset]")) {
      const token = $(".mapframe .token.selected");
      if (token) command({ type: "map.token.set", token: token.dataset.token, color: DEFAULT_COLOR });
    }
  });
})();
