/* Fray's own script: small and plain. htmx does the requests and swaps; this keeps the live
   connection honest (resume with ?after=, reconnect after sleep), gives each command an id,
   announces new log lines and buzzes the phone when it is your turn. */
(function () {
  "use strict";
  var lastMessage = Date.now();
  var socket = null; // htmx-ext-ws's socket wrapper (public interface)
  var retry = null;
  var PING_EVERY = 25000, STALE_AFTER = 60000;

  function liveRoot() { return document.querySelector("[ws-connect]"); }

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

  // Every (re)connection resumes from the last seq this page has shown.
  var native = function (url) { var ws = new WebSocket(url, []); ws.binaryType = "blob"; return ws; };
  function installResume() {
    htmx.createWebSocket = function (url) {
      var u = new URL(url, location.href);
      u.searchParams.set("after", lastSeq());
      return native(u.toString());
    };
  }

  function reconnectSoon(delay) {
    if (retry) return;
    setPill("reconnecting", "reconnecting…");
    retry = setTimeout(function () {
      retry = null;
      if (socket) socket.reconnect();
    }, delay);
  }

  document.addEventListener("htmx:wsConnecting", function () {
    if (document.getElementById("live-pill").dataset.state !== "live") setPill("connecting", "connecting…");
  });
  document.addEventListener("htmx:wsOpen", function (e) {
    socket = e.detail.socketWrapper;
    lastMessage = Date.now();
    setPill("live", "live");
    sendQueued();
  });
  document.addEventListener("htmx:wsClose", function (e) {
    var code = e.detail.event.code;
    if (code >= 4400 && code < 4500) { // the server refused this seat: do not hammer it
      setPill("closed", e.detail.event.reason || "not at this table");
      return;
    }
    // htmx-ext-ws retries 1006/1011/1012/1013 itself; any other close (a proxy, a sleep) we retry here.
    if ([1006, 1011, 1012, 1013].indexOf(code) < 0) reconnectSoon(1000 + Math.random() * 2000);
    else setPill("reconnecting", "reconnecting…");
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    lastMessage = Date.now();
    if (navigator.onLine !== false) setPill("live", "live");
  });

  // A phone that slept, or changed networks, may hold a dead socket: check on wake.
  function checkAlive() {
    sendQueued(); // taps kept while the server was away go as soon as it answers again
    if (!socket) return;
    if (Date.now() - lastMessage > STALE_AFTER) reconnectSoon(50);
    else socket.send("ping");
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) checkAlive(); });
  window.addEventListener("online", function () { reconnectSoon(50); sendQueued(); });
  // The pill tells the truth at once: a phone that lost its network is offline, whatever its socket says.
  window.addEventListener("offline", function () { setPill("offline", "offline"); });
  window.addEventListener("pageshow", function (e) { if (e.persisted) reconnectSoon(50); });
  setInterval(function () { if (!document.hidden) checkAlive(); }, PING_EVERY);

  // Each command carries an id, so a resend after a dropped connection does not act twice.
  document.addEventListener("htmx:configRequest", function (e) {
    if (e.detail.verb === "post" && e.detail.elt.matches("form.cmd")) {
      e.detail.parameters["command_id"] = (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random());
    }
  });
  // A tap made offline, or while the server does not answer, is kept with its command id and sent when
  // the connection is back (the id makes a resend safe: the server acts once), and the form says so.
  var QUEUE_KEY = "fray-queued-" + location.pathname.split("/")[2];
  function queued() { try { return JSON.parse(sessionStorage.getItem(QUEUE_KEY) || "[]"); } catch (err) { return []; } }
  function saveQueue(items) { sessionStorage.setItem(QUEUE_KEY, JSON.stringify(items)); }
  function say(form, text, kind) {
    var out = form && form.querySelector(".form-msg");
    if (!out) return;
    var span = document.createElement("span");
    span.className = "msg " + kind;
    span.setAttribute("role", "status");
    span.textContent = text;
    if (kind === "warn") span.dataset.queued = "1"; // the reply, when sent later, takes this note's place
    out.replaceChildren(span);
  }
  function keep(form, config) {
    var fields = [];
    var params = config.parameters || {};
    (params.forEach ? params : new URLSearchParams(Object.entries(params))).forEach(function (v, k) { fields.push([k, String(v)]); });
    var items = queued();
    items.push({ url: new URL(config.path || form.getAttribute("hx-post"), location.href).toString(), fields: fields,
                 label: form.getAttribute("aria-label") || "" });
    saveQueue(items);
    say(form, "No connection: kept, and sent when the connection is back.", "warn");
    setPill("offline", navigator.onLine === false ? "offline" : "server away");
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail.elt;
    if (navigator.onLine !== false || !form.matches || !form.matches("form.cmd")) return;
    e.preventDefault();
    keep(form, e.detail.requestConfig);
  });
  document.addEventListener("htmx:sendError", function (e) {
    var form = e.detail.elt;
    if (form.matches && form.matches("form.cmd")) keep(form, e.detail.requestConfig);
  });
  var sending = false;
  function sendQueued() {
    var items = queued();
    if (sending || !items.length || navigator.onLine === false) return;
    sending = true;
    var item = items[0];
    fetch(item.url, { method: "POST", credentials: "same-origin", headers: { "HX-Request": "true" },
                      body: new URLSearchParams(item.fields) })
      .then(function (r) {
        saveQueue(queued().slice(1)); // answered (done, or refused with a reason): never sent again
        // The form that said "kept" (its note survives redraws), else the first of that name.
        var forms = item.label ? Array.prototype.slice.call(document.querySelectorAll('form.cmd[aria-label="' + CSS.escape(item.label) + '"]')) : [];
        var form = forms.find(function (f) { return f.querySelector(".form-msg [data-queued]"); }) || forms[0];
        return r.text().then(function (html) { if (form) form.querySelector(".form-msg").innerHTML = html; });
      })
      .catch(function () { /* still away: the next reconnect tries again */ })
      .then(function () { sending = false; if (queued().length && navigator.onLine !== false) setTimeout(sendQueued, 50); });
  }

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
      boards.splice(0).forEach(function (pair) { pair[0].replaceWith(pair[1]); pair[1]._served = pair[1].outerHTML; });
      noteBoards(); // a board the morph brought in (a scene first shown) is noted before frame.js touches it
      return nodes;
    },
  });
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
    installResume();
    noteBoards();
    if (navigator.onLine === false) setPill("offline", "offline");
    var status = document.getElementById("status");
    myTurn = !!(status && status.hasAttribute("data-my-turn"));
    prompts = status ? promptsOf(status) : [];
  }
  if (window.htmx) start(); else document.addEventListener("DOMContentLoaded", start);
})();
