// The map frame: the one pan, zoom, pinch and ping implementation every board uses (the battle map's
// scenes, Triptycho's section map, the 5x5 tabletop). A board registers what its own gestures do (drag a
// token, draw fog, tap a section); whatever it leaves unclaimed pans, and a tap on nothing pings.
// Views are kept across live pushes, which replace the frame's element.
(() => {
  "use strict";
  const TAP = 8; // pixels a pointer may wander and still be a tap
  const NS = "http://www.w3.org/2000/svg";
  const views = new Map(); // "kind:key:page" -> [x, y, w, h]
  const kinds = new Map(); // data-kind -> (frame, svg) => handlers

  const keyOf = (frame) => `${frame.dataset.kind}:${frame.dataset.key}:${frame.dataset.page}`;
  const svgOf = (frame) => frame.querySelector(":scope > svg");
  const full = (frame) => frame.dataset.full.split(" ").map(Number);

  function point(svg, clientX, clientY) {
    const p = new DOMPoint(clientX, clientY).matrixTransform(svg.getScreenCTM().inverse());
    return [p.x, p.y];
  }
  function view(frame) {
    return svgOf(frame).getAttribute("viewBox").split(/[ ,]+/).map(Number);
  }
  // Zoom between `data-zoom-in` times closer and `data-zoom-out` times farther than the whole board;
  // the middle of the view stays over the board, so a board is never panned off screen.
  function setView(frame, box) {
    const [fx, fy, fw, fh] = full(frame);
    const closest = fw / (+frame.dataset.zoomIn || 8), farthest = fw * (+frame.dataset.zoomOut || 1.5);
    const w = Math.min(Math.max(box[2], closest), farthest), h = (w * fh) / fw;
    let cx = box[0] + box[2] / 2, cy = box[1] + box[3] / 2;
    cx = Math.min(Math.max(cx, fx), fx + fw);
    cy = Math.min(Math.max(cy, fy), fy + fh);
    const next = [cx - w / 2, cy - h / 2, w, h].map((v) => Math.round(v * 1000) / 1000);
    views.set(keyOf(frame), next);
    svgOf(frame).setAttribute("viewBox", next.join(" "));
    unit(frame);
  }
  function zoom(frame, factor, at) {
    const [vx, vy, vw, vh] = view(frame);
    const [x, y] = at || [vx + vw / 2, vy + vh / 2];
    setView(frame, [x - (x - vx) / factor, y - (y - vy) / factor, vw / factor, vh / factor]);
  }
  function fit(frame) {
    views.delete(keyOf(frame));
    svgOf(frame).setAttribute("viewBox", full(frame).join(" "));
    unit(frame);
  }
  // Board units per CSS pixel at the current zoom, as --unit: CSS keeps marks (tokens) thumb-sized with it.
  function unit(frame) {
    const svg = svgOf(frame), r = svg.getBoundingClientRect(), [, , w, h] = view(frame);
    if (r.width && r.height) frame.style.setProperty("--unit", Math.max(w / r.width, h / r.height).toFixed(4));
  }
  const resized = new ResizeObserver((entries) => entries.forEach((e) => unit(e.target.closest(".mapframe"))));

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }
  function overlay(frame) {
    const svg = svgOf(frame);
    return svg.querySelector(":scope > .frame-overlay") || el("g", { class: "frame-overlay" }, svg);
  }
  const pingRadius = (frame) => +frame.dataset.pingR || full(frame)[2] / 40;
  function showPing(frame, x, y, by) {
    const r = pingRadius(frame);
    const g = el("g", { class: "ping", transform: `translate(${x} ${y})` }, overlay(frame));
    el("circle", { r }, g);
    // Sized in the board's own units (pixels of a scene, inches of a tabletop): the style wins over CSS.
    if (by) el("text", { y: -r * 1.4, style: `font-size:${r * 0.8}px;stroke-width:${r * 0.1}px` }, g).textContent = by;
    setTimeout(() => g.remove(), 2200);
  }
  // A ping is ephemeral: the server relays it to whoever may see the spot, and logs nothing.
  async function ping(frame, [x, y]) {
    showPing(frame, x, y);
    const body = { x: Math.round(x * 100) / 100, y: Math.round(y * 100) / 100 };
    if (frame.dataset.board) body.board = frame.dataset.board;
    else if (frame.dataset.scene) body.scene = frame.dataset.scene;
    const r = await fetch(`/api/campaigns/${frame.dataset.campaign}/signals`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ "map.ping": body }),
    });
    if (!r.ok) {
      const detail = await r.json().then((b) => b.detail, () => null);
      document.dispatchEvent(new CustomEvent("fray:flash", { detail: detail || `The server said ${r.status}.` }));
    }
  }

  function attach(frame) {
    const svg = svgOf(frame);
    const make = kinds.get(frame.dataset.kind);
    if (!svg || !make || frame.dataset.ready) return;
    frame.dataset.ready = "1";
    const board = make(frame, svg) || {};
    const kept = views.get(keyOf(frame));
    const first = kept || (board.initial && board.initial());
    if (first) setView(frame, first); else unit(frame);
    resized.observe(svg);
    const pointers = new Map();
    let gesture = null;

    svg.addEventListener("pointerdown", (e) => {
      if (e.pointerType === "mouse" && e.button !== 0) return;
      try { svg.setPointerCapture(e.pointerId); } catch (_) { /* the element was replaced */ }
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pointers.size === 2) {
        if (gesture && gesture.own && gesture.own.cancel) gesture.own.cancel();
        const [a, b] = [...pointers.values()];
        gesture = { pinch: true, d0: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, vb0: view(frame),
                    mid: point(svg, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2) };
        return;
      }
      if (pointers.size > 2) return;
      const at = point(svg, e.clientX, e.clientY);
      const own = board.claim ? board.claim(e, at) : null;
      gesture = { start: [e.clientX, e.clientY], at, target: e.target, moved: false, own, vb0: view(frame) };
      e.preventDefault();
    });

    svg.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId) || !gesture) return;
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (gesture.pinch) {
        if (pointers.size < 2) return;
        const [a, b] = [...pointers.values()];
        const f = (Math.hypot(a[0] - b[0], a[1] - b[1]) || 1) / gesture.d0;
        const [vx, vy, vw, vh] = gesture.vb0, [mx, my] = gesture.mid;
        setView(frame, [mx - (mx - vx) / f, my - (my - vy) / f, vw / f, vh / f]);
        return;
      }
      if (Math.hypot(e.clientX - gesture.start[0], e.clientY - gesture.start[1]) > TAP) gesture.moved = true;
      if (!gesture.moved) return;
      if (gesture.own) return gesture.own.move(point(svg, e.clientX, e.clientY), e);
      const [vx, vy, vw, vh] = gesture.vb0;
      const scale = vw / svg.getBoundingClientRect().width;
      setView(frame, [vx - (e.clientX - gesture.start[0]) * scale, vy - (e.clientY - gesture.start[1]) * scale, vw, vh]);
    });

    const end = (e) => {
      if (!pointers.delete(e.pointerId) || !gesture) return;
      const g = gesture;
      if (g.pinch) { if (pointers.size === 0) gesture = null; return; }
      gesture = null;
      if (e.type === "pointercancel") { if (g.own && g.own.cancel) g.own.cancel(); return; }
      const at = point(svg, e.clientX, e.clientY);
      if (g.moved) { if (g.own && g.own.end) g.own.end(at, e); return; }
      if (g.own && g.own.cancel) g.own.cancel();
      const handled = board.tap ? board.tap(g.at, e, g.target) : false;
      if (!handled && frame.hasAttribute("data-ping")) ping(frame, g.at);
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);

    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      zoom(frame, e.deltaY < 0 ? 1.15 : 1 / 1.15, point(svg, e.clientX, e.clientY));
    }, { passive: false });

    frame.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && gesture) {
        if (gesture.own && gesture.own.cancel) gesture.own.cancel();
        gesture = null;
      }
      if (board.key) board.key(e);
      if (e.defaultPrevented || e.target.closest("input, select, textarea")) return;
      if (e.key === "+" || e.key === "=") zoom(frame, 1.25);
      else if (e.key === "-") zoom(frame, 1 / 1.25);
    });
  }

  // Zoom buttons sit in every frame, for a mouse without a wheel and for a phone held in one hand.
  document.addEventListener("click", (e) => {
    const button = e.target.closest && e.target.closest("[data-frame-zoom]");
    const frame = button && button.closest(".mapframe");
    if (!frame) return;
    const how = button.dataset.frameZoom;
    if (how === "in") zoom(frame, 1.5);
    else if (how === "out") zoom(frame, 1 / 1.5);
    else fit(frame);
  });

  // Pings from others arrive on the page's socket as JSON beside the HTML fragments.
  document.addEventListener("fray:message", (e) => {
    const text = e.detail && e.detail.message;
    if (typeof text !== "string" || !text.startsWith('{"map.ping"')) return;
    e.preventDefault();
    const body = JSON.parse(text)["map.ping"];
    document.querySelectorAll(".mapframe[data-ready]").forEach((frame) => {
      const here = body.board ? frame.dataset.board === body.board : !frame.dataset.board && frame.dataset.scene === body.scene;
      if (here) showPing(frame, body.x, body.y, body.by);
    });
  });

  const attachAll = () => document.querySelectorAll(".mapframe[data-kind]:not([data-ready])").forEach(attach);
  window.FrayFrame = {
    register(kind, make) { kinds.set(kind, make); attachAll(); },
    point, view, setView, zoom, fit, el, overlay, showPing, ping,
  };
  new MutationObserver(attachAll).observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", attachAll);
})();
