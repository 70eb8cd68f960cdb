/* Fray's own script: small and plain. htmx does the requests and swaps; this keeps the live
   connection honest (one socket, a heartbeat, resume with ?after=), gives each command an id and
   keeps taps the network did not carry, announces new log lines and buzzes the phone on your turn. */
(function () {
  "use strict";
  // A socket that stops passing bytes closes nothing, so the page asks: a ping when it has heard
  // nothing for PING_EVERY, and a socket whose ping is unanswered for ANSWER_WITHIN is dead (found in
  // under 10 s). One socket at a time; a socket the page gives up on is cut loose before the next one.
  var PING_EVERY = 2000, ANSWER_WITHIN = 5000, OPEN_WITHIN = 5000, BACKOFF_MAX = 3000;
  var SEND_WITHIN = 4000, RESEND_EVERY = 2000; // a command unanswered this long is kept and resent
  var socket = null, startedAt = 0, heard = 0, asked = 0, tries = 0, retry = null;
  var everLive = false, refused = null;

  function liveRoot() { return document.querySelector("[data-live]"); }

  function lastSeq() {
    var marker = document.getElementById("live-seq");
    var root = liveRoot();
    return (marker && marker.dataset.seq) || (root && root.dataset.seq) || "0";
  }

  function setPill(state, text) {
    var pill = document.getElementById("live-pill");
    if (!pill) return;
    pill.dataset.state = state;
    pill.textContent = text;
  }
  // The pill says what is true now: the device offline, the server out of reach, or live (the socket
  // open and its heartbeat answered: a socket that stops answering is dropped at once).
  function showState() {
    if (refused) setPill("closed", refused);
    else if (navigator.onLine === false || copy) setPill("offline", "offline");
    else if (socket && socket.readyState === WebSocket.OPEN) setPill("live", "live");
    else if (everLive) setPill("reconnecting", "reconnecting…");
    else setPill("connecting", "connecting…");
  }

  function connect() {
    clearTimeout(retry);
    retry = null;
    drop();
    var root = liveRoot();
    if (!root || refused || navigator.onLine === false) return showState(); // "online" connects
    var url = new URL(root.dataset.live, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("after", lastSeq()); // resume from the last seq this page has shown
    var ws = new WebSocket(url.toString());
    socket = ws;
    startedAt = Date.now();
    asked = 0;
    ws.onopen = function () {
      heard = Date.now();
      tries = 0;
      if (everLive) resync(root);
      everLive = true;
      showState();
      sendQueued();
      if (copy) reloadWhenSent();
    };
    ws.onmessage = function (e) {
      heard = Date.now();
      asked = 0;
      showState();
      receive(root, e.data);
      keepCopy();
    };
    ws.onclose = function (e) {
      socket = null;
      if (e.code >= 4400 && e.code < 4500) refused = e.reason || "not at this table"; // no hammering
      reconnectLater();
    };
    showState();
  }
  // The page's own close schedules nothing: the old socket's handlers go before it is closed.
  function drop() {
    if (!socket) return;
    var old = socket;
    socket = null;
    old.onopen = old.onmessage = old.onclose = null;
    try { old.close(); } catch (err) { /* already closed */ }
  }
  function reconnectLater() {
    showState();
    if (retry || refused || navigator.onLine === false) return;
    var delay = Math.min(BACKOFF_MAX, 250 * Math.pow(2, tries++)); // capped low: back within 5 s of the network
    retry = setTimeout(connect, delay * (0.5 + Math.random() / 2));
  }
  function ping() {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send("ping");
    if (!asked) asked = Date.now();
  }
  function beat() {
    var now = Date.now();
    if (!sending && !resend && queued().length) sendQueued();
    if (!socket) return;
    if (socket.readyState === WebSocket.CONNECTING && now - startedAt > OPEN_WITHIN) { drop(); reconnectLater(); }
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    if (asked && now - asked > ANSWER_WITHIN) { drop(); reconnectLater(); } // bytes stopped: a dead socket
    else if (!asked && now - heard >= PING_EVERY && !document.hidden) ping(); // a phone in a pocket asks on wake
  }
  setInterval(beat, 1000);

  // Each message is HTML fragments swapped out of band, as htmx does for its own responses; pings,
  // rulers and ghosts (JSON) are taken by frame.js and map.js through the cancelable fray:message.
  var api = null;
  htmx.defineExtension("fray-live", { init: function (internal) { api = internal; } });
  function receive(root, text) {
    var message = new CustomEvent("fray:message", { bubbles: true, cancelable: true, detail: { message: text } });
    if (!root.dispatchEvent(message) || typeof text !== "string") return;
    var settle = api.makeSettleInfo(root);
    Array.prototype.slice.call(api.makeFragment(text).children).forEach(function (el) {
      api.oobSwap(api.getAttributeValue(el, "hx-swap-oob") || "true", el, settle);
    });
    api.settleImmediately(settle.tasks);
  }

  // A page that reconnects shows the server's state, whatever it showed meanwhile (a token dragged while
  // offline, a push lost): the page is fetched again and its live blocks morphed in, the boards redrawn
  // whole. A push newer than the fetched page (a higher seq) wins over it.
  function resync(root) {
    fetch(location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html || !document.body.contains(root)) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("[data-live]"), marker = doc.getElementById("live-seq");
        if (!fresh || Number((marker && marker.dataset.seq) || fresh.dataset.seq || 0) < Number(lastSeq())) return;
        var blocks = Array.prototype.filter.call(fresh.querySelectorAll("[id]"), function (el) {
          var up = el.parentElement && el.parentElement.closest("[id]");
          return !(up && up !== fresh && fresh.contains(up)) && document.getElementById(el.id);
        });
        document.querySelectorAll(".mapframe").forEach(function (f) { f._served = null; }); // redrawn whole
        receive(root, blocks.map(function (el) { el.setAttribute("hx-swap-oob", "morph"); return el.outerHTML; }).join(""));
      })
      .catch(function () { /* the next reconnect tries again */ });
  }

  // A phone that slept, or changed networks, may hold a dead socket: ask at once on wake.
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) return;
    if (socket) ping(); else if (!retry) connect();
    sendQueued();
  });
  window.addEventListener("online", function () {
    tries = 0;
    if (socket && socket.readyState === WebSocket.OPEN) { ping(); resync(liveRoot()); } else connect(); // one new socket at most
    showState();
    sendQueued();
  });
  window.addEventListener("offline", showState);
  window.addEventListener("pageshow", function (e) { if (e.persisted) connect(); });

  // Each command carries an id, so a resend after a dropped connection does not act twice; its
  // request gives up after SEND_WITHIN, and the tap is kept and resent with the same id.
  var taps = 0;
  function newId() { return crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random(); }
  document.addEventListener("htmx:configRequest", function (e) {
    if (e.detail.verb === "post" && e.detail.elt.matches("form.cmd")) {
      e.detail.parameters["command_id"] = newId();
      e.detail.timeout = SEND_WITHIN;
      e.detail.frayOrder = Date.now() + (++taps % 1000) / 1000; // taps go in the order they were made
    }
  });
  // A tap made offline, while the server does not answer, or while an earlier tap is on its way is
  // kept (in this tab's storage) and sent in order when a request gets through; the id makes a resend
  // safe. The form says so, except for a first silent resend: a reply lost after the server acted
  // comes back on the resend, and there was nothing to tell.
  var QUEUE_KEY = "fray-queued-" + location.pathname.split("/")[2];
  var formOf = {}; // command id -> the form tapped, while this page lives
  var inFlight = 0; // taps htmx is sending now
  function queued() { try { return JSON.parse(sessionStorage.getItem(QUEUE_KEY) || "[]"); } catch (err) { return []; } }
  function saveQueue(items) { sessionStorage.setItem(QUEUE_KEY, JSON.stringify(items)); }
  function say(form, text, kind, id) {
    var out = form && form.querySelector(".form-msg");
    if (!out) return;
    var span = document.createElement("span");
    span.className = "msg " + kind;
    span.setAttribute("role", "status");
    span.textContent = text;
    if (id) span.dataset.queued = id; // the reply, when it comes, takes this note's place
    out.replaceChildren(span);
  }
  var KEPT = "No connection: kept, and sent when the connection is back.";
  function keep(form, config, why) {
    var fields = [];
    var params = config.parameters || {};
    (params.forEach ? params : new URLSearchParams(Object.entries(params))).forEach(function (v, k) { fields.push([k, String(v)]); });
    var id = (fields.find(function (f) { return f[0] === "command_id"; }) || [])[1];
    var items = queued();
    if (!id || items.some(function (i) { return i.id === id; })) return;
    items.push({ id: id, order: config.frayOrder || Date.now(), key: formKey(form), fields: fields,
                 url: new URL(config.path || form.getAttribute("hx-post"), location.href).toString() });
    items.sort(function (a, b) { return a.order - b.order; });
    saveQueue(items);
    formOf[id] = form;
    if (why === "offline") say(form, "Offline: kept, and sent when the connection is back.", "warn", id);
    else if (why === "behind") say(form, "Queued: sent after your earlier tap.", "warn", id);
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail.elt, config = e.detail.requestConfig;
    if (!form.matches || !form.matches("form.cmd")) return;
    if (navigator.onLine === false || inFlight || queued().length) {
      e.preventDefault();
      keep(form, config, navigator.onLine === false ? "offline" : "behind");
      sendQueued();
    }
  });
  // Counted once htmx really sends it (another listener may still cancel it before), and followed by
  // the request's own end, not htmx's events: those never reach the document when a push has
  // replaced the form meanwhile. No answer (an error, or SEND_WITHIN passed): kept and resent.
  document.addEventListener("htmx:beforeSend", function (e) {
    var form = e.detail.elt, config = e.detail.requestConfig, xhr = e.detail.xhr;
    if (!form.matches || !form.matches("form.cmd") || !config || !xhr) return;
    inFlight++;
    xhr.addEventListener("loadend", function () {
      inFlight--;
      if (xhr.status) reached(); else keep(form, config, "quiet");
      sendQueued();
    });
  });
  // A request got through, so the network is back: a socket waiting out its backoff goes now.
  function reached() { if (!socket && !refused && navigator.onLine !== false) { tries = 0; connect(); } }

  var sending = false, resend = null;
  function sendQueued() {
    var items = queued();
    if (sending || inFlight || !items.length || navigator.onLine === false) return;
    sending = true;
    clearTimeout(resend);
    resend = null;
    var item = items[0];
    var abort = new AbortController();
    var timer = setTimeout(function () { abort.abort(); }, SEND_WITHIN);
    fetch(item.url, { method: "POST", credentials: "same-origin", headers: { "HX-Request": "true" },
                      body: new URLSearchParams(item.fields), signal: abort.signal })
      .then(function (r) {
        if (r.status === 502 || r.status === 503 || r.status === 504) throw new Error("server away");
        return r.text().then(function (html) {
          // Answered (done, or refused with a reason): never sent again.
          saveQueue(queued().filter(function (i) { return i.id !== item.id; }));
          answer(item, html, r.ok);
          reached();
          return true;
        });
      })
      .catch(function () {
        queued().forEach(function (it) { // every tap waiting says so, not only the one tried
          var form = formFor(it), note = form && form.querySelector(".form-msg [data-queued]");
          if (form && !(note && / kept, /.test(note.textContent))) say(form, KEPT, "warn", it.id);
        });
        return false;
      })
      .then(function (ok) {
        clearTimeout(timer);
        sending = false;
        if (ok) sendQueued(); // the next one at once, in order
        else if (queued().length) resend = setTimeout(function () { resend = null; sendQueued(); }, RESEND_EVERY);
      });
  }
  // The form that was tapped if it is still on the page, else the one showing its note, else the one
  // of that name now on the page.
  function formFor(item) {
    var form = formOf[item.id];
    if (form && document.body.contains(form)) return form;
    var note = document.querySelector('.form-msg [data-queued="' + item.id + '"]');
    if (note) return note.closest("form");
    return Array.prototype.find.call(document.querySelectorAll("form.cmd"), function (f) { return formKey(f) === item.key; });
  }
  function answer(item, html, ok) {
    delete formOf[item.id];
    var form = formFor(item);
    if (!form) return;
    form.querySelector(".form-msg").innerHTML = html;
    if (ok) done(form);
  }

  // The table as this phone last saw it, for the service worker (static/js/sw.js) to show when a reload
  // finds no network: read-only, marked offline, with the kept taps, which go when a request gets
  // through; then the live page is loaded again.
  var PAGES = "fray-pages", copy = false, copyTimer = null;
  function keepCopy() {
    if (copy || !window.caches || !liveRoot()) return;
    clearTimeout(copyTimer);
    copyTimer = setTimeout(function () {
      var page = document.documentElement.cloneNode(true);
      page.querySelectorAll(".form-msg, #flash").forEach(function (el) { el.replaceChildren(); });
      var html = "<!doctype html>\n" + page.outerHTML;
      caches.open(PAGES).then(function (cache) {
        return cache.put(location.pathname, new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
      }).catch(function () { /* storage full or refused: no copy */ });
    }, 1000);
  }
  function reloadWhenSent() {
    if (!queued().length && !sending) location.reload();
    else setTimeout(reloadWhenSent, 250);
  }
  // Leaving the table on this device leaves no copy of it behind.
  document.addEventListener("submit", function (e) {
    if (!window.caches || !/\/leave$/.test(e.target.action || "")) return;
    var table = location.pathname.replace(/[^/]+$/, ""); // /c/<id>/
    caches.open(PAGES).then(function (cache) {
      return cache.keys().then(function (keys) {
        keys.forEach(function (k) { if (new URL(k.url).pathname.indexOf(table) === 0) cache.delete(k); });
      });
    });
  });

  // A command that worked clears its form's typed dice (never the whole form: labels are handy to keep).
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.detail.elt;
    if (e.detail.successful && form.matches && form.matches("form.cmd")) done(form);
  });
  function done(form) {
    var dice = form.querySelector("input[name=dice]");
    if (dice) dice.value = "";
    if (form.classList.contains("free-roll") === false && form.closest("details")) form.reset();
  }

  // Live blocks morph into the page (idiomorph, from the npm registry) instead of replacing it, so what
  // belongs to the person holding the phone survives a push: an open <details>, the focused field and
  // its caret, scroll positions, a form's confirmation, and anything typed or ticked in a field the
  // server did not change.
  // The boards (.mapframe: scene, sections, tabletop) are scripts' own widgets with listeners and a kept
  // view: a changed board is replaced whole, after the morph, and frame.js attaches the new one.
  var boards = [];
  var userOwned = function (attr, node) {
    if (attr === "open" && (node.tagName === "DETAILS" || node.tagName === "DIALOG")) return true;
    if (attr === "value" && "defaultValue" in node) return node.value !== node.defaultValue;
    if (attr === "checked" && "defaultChecked" in node) return node.checked !== node.defaultChecked;
    if (attr === "selected" && node.tagName === "OPTION") return picked(node.closest("select"));
    return false;
  };
  // A choice someone made in a list is theirs: every option keeps its state, the server's first or
  // marked option included (a fresh list would otherwise select it over theirs).
  function picked(select) {
    if (!select) return false;
    var options = Array.prototype.slice.call(select.options);
    if (select.multiple) return options.some(function (o) { return o.selected !== o.defaultSelected; });
    var marked = options.map(function (o) { return o.defaultSelected; }).lastIndexOf(true);
    return select.selectedIndex !== (marked < 0 ? 0 : marked); // a list with none marked shows its first
  }
  // A field someone typed into keeps what they typed, but learns the server's new value as its default,
  // so a later reset (or a later push, once they clear it) shows the table as it is now.
  function learnDefault(old, fresh) {
    if (old.tagName === "TEXTAREA" && old.value !== old.defaultValue) old.defaultValue = fresh.defaultValue;
    if (old.tagName === "INPUT" && old.type !== "file" && old.value !== old.defaultValue) {
      if (fresh.hasAttribute("value")) old.setAttribute("value", fresh.getAttribute("value"));
      else old.removeAttribute("value");
    }
  }
  var MORPH = {
    morphStyle: "outerHTML",
    callbacks: {
      beforeAttributeUpdated: function (attr, node) { return !userOwned(attr, node); },
      beforeNodeMorphed: function (old, fresh) {
        if (old.nodeType !== 1) return true;
        learnDefault(old, fresh);
        // A form's confirmation ("Prepared …") outlives the push its own command brings (issue 17, item
        // 7), and keeps its place in its fade: the server always draws the slot empty.
        if (old.classList.contains("form-msg")) return !old.innerHTML.trim();
        if (!old.classList.contains("mapframe")) return true;
        if (!fillPieces(old, fresh)) unfilled = true;
        if (old._served !== fresh.outerHTML) boards.push([old, fresh]);
        return false;
      },
    },
  };
  htmx.defineExtension("morph", {
    isInlineSwap: function (style) { return style === "morph"; },
    handleSwap: function (style, target, fragment) {
      if (style !== "morph") return false;
      var nodes = Idiomorph.morph(target, fragment.children, MORPH);
      boards.splice(0).forEach(function (pair) { keepTiles(pair[0], pair[1]); pair[0].replaceWith(pair[1]); pair[1]._served = pair[1].outerHTML; });
      noteBoards(); // a board the morph brought in (a scene first shown) is noted before frame.js touches it
      // A piece the page did not hold, or a stub the morph put in without a board to fill it from: ask for all.
      if (unfilled || document.querySelector("[data-piece-kept]")) { unfilled = false; resync(liveRoot()); }
      return nodes;
    },
  });
  // A board's image tiles (a player's on a scene with vision) are named by their content: a tile the new
  // board draws with the same id and URL keeps the element already on the page, loaded and decoded, so a
  // step swaps only the tiles whose URL changed.
  function keepTiles(old, fresh) {
    fresh.querySelectorAll("image.map-tile[id]").forEach(function (tile) {
      var was = old.querySelector("image.map-tile[id='" + tile.id + "']");
      if (was && was.getAttribute("href") === tile.getAttribute("href")) tile.replaceWith(was);
    });
  }
  // A large piece of a board the page already holds (the GM's walls) comes as a stub while it reads the
  // same (app/realtime/pieces.py): a copy of the piece on the page takes its place. A stub with no piece
  // to copy (it should not happen) leaves the page to be fetched again whole.
  var unfilled = false;
  function fillPieces(old, fresh) {
    var all = true;
    fresh.querySelectorAll("[data-piece-kept]").forEach(function (stub) {
      var held = old.querySelector('[data-piece="' + stub.getAttribute("data-piece-kept") + '"]');
      if (held) stub.replaceWith(held.cloneNode(true)); else all = false;
    });
    return all;
  }
  // What the server drew of each board, to tell a push that changes it from one that does not.
  function noteBoards() { document.querySelectorAll(".mapframe").forEach(function (f) { if (!f._served) f._served = f.outerHTML; }); }

  // The push may also come first and replace a form outright (a list that changed around it): the reply
  // then lands in a form no longer on the page, so when the request ends its words are copied to the
  // form of that name now on the page.
  function formKey(form) {
    var type = form && form.querySelector("input[name=type]");
    return form ? (form.getAttribute("aria-label") || (type && type.value) || form.id || "") : "";
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail.elt, xhr = e.detail.xhr;
    if (!xhr || !form.matches || !form.matches("form.cmd")) return;
    xhr.addEventListener("loadend", function () {
      var out = form.querySelector(".form-msg");
      if (document.body.contains(form) || !out || !out.innerHTML.trim()) return;
      var key = formKey(form);
      var alike = Array.prototype.filter.call(document.querySelectorAll("form.cmd"), function (f) { return formKey(f) === key; });
      if (alike.length !== 1) return; // none, or several (a row of track boxes): no guessing which
      var now = alike[0];
      if (xhr.status >= 200 && xhr.status < 300) done(now);
      now.querySelector(".form-msg").innerHTML = out.innerHTML;
    });
  });

  // Phones buzz when it becomes your turn (the log is a polite live region for screen readers).
  var myTurn = false;
  var prompts = []; // the questions this phone was last shown
  function promptsOf(status) { return (status.dataset.prompts || "").split(" ").filter(Boolean); }
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    var target = e.detail.target;
    if (!target || !target.id) return;
    if (target.id === "log-list") {  // new lines were added on top: keep the list as long as a fresh page's
      var keep = Number(target.dataset.keep || 40);
      while (target.children.length > keep) target.lastElementChild.remove();
    }
    if (target.id === "status") {
      target = document.getElementById("status"); // the swapped-in element (the event may name the old one)
      var now = target.hasAttribute("data-my-turn");
      if (now && !myTurn && navigator.vibrate) navigator.vibrate([120, 60, 120]);
      myTurn = now;
      // A question for this phone (a Reaction, a damage choice, a karma window) buzzes when it arrives.
      var asked = promptsOf(target);
      if (asked.some(function (id) { return prompts.indexOf(id) < 0; }) && navigator.vibrate) navigator.vibrate([80, 40, 80]);
      prompts = asked;
    }
  });

  // Copy buttons for invite links.
  document.addEventListener("click", function (e) {
    var button = e.target.closest("[data-copy]");
    if (!button) return;
    var input = document.querySelector(button.dataset.copy);
    if (!input) return;
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value);
    else document.execCommand("copy");
    button.textContent = "Copied";
  });

  // Ctrl/Cmd+Z on the GM console undoes the last action.
  document.addEventListener("keydown", function (e) {
    if ((e.ctrlKey || e.metaKey) && e.key === "z" && !e.target.closest("input, textarea")) {
      var undo = document.querySelector("#undo button");
      if (undo) { e.preventDefault(); undo.click(); }
    }
  });

  function start() {
    noteBoards();
    copy = document.body.hasAttribute("data-offline-copy");
    document.body.classList.toggle("offline-copy", copy);
    queued().forEach(function (item) { var form = formFor(item); if (form) say(form, KEPT, "warn", item.id); });
    connect();
    if (!liveRoot()) return;
    if (navigator.serviceWorker) navigator.serviceWorker.register("/sw.js").catch(function () { /* no offline copy */ });
    keepCopy();
    var status = document.getElementById("status");
    myTurn = !!(status && status.hasAttribute("data-my-turn"));
    prompts = status ? promptsOf(status) : [];
  }
  if (window.htmx) start(); else document.addEventListener("DOMContentLoaded", start);
})();
