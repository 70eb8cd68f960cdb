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

  // Live blocks are redrawn under people's fingers: keep what someone had typed or ticked in a form of the
  // block (a new pool's name, dice faces), matched by the form's label or command and the field's name,
  // and keep the caret where it was. Fields still at their page default take the new render's value.
  function formKey(form) {
    var type = form && form.querySelector("input[name=type]");
    return form ? (form.getAttribute("aria-label") || (type && type.value) || form.id || "") : "";
  }
  function fieldKey(field) {
    return formKey(field.form) + "|" + field.name;
  }
  function changed(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") return Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
    return field.value !== field.defaultValue;
  }
  var typed = null;
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var target = e.detail.target;
    typed = null;
    if (!target || !target.id || !target.querySelector) return;
    var focus = document.activeElement;
    var saved = [];
    target.querySelectorAll("form input:not([type=hidden]), form textarea, form select").forEach(function (field) {
      if (!field.name || !changed(field)) return;
      saved.push({ key: fieldKey(field), value: field.value, checked: field.checked, focus: field === focus,
                   start: field.selectionStart, end: field.selectionEnd });
    });
    // A form's confirmation ("Prepared …") and an open fold (the form someone is using) outlive the
    // redraw the same command's push brings: issue 17 item 7.
    var said = [];
    target.querySelectorAll("form.cmd .form-msg").forEach(function (out) {
      if (!out.innerHTML.trim()) return;
      // A fading "done" keeps its place in the fade (a later push must not bring an old one back).
      var fade = out.firstElementChild && out.firstElementChild.getAnimations ? out.firstElementChild.getAnimations()[0] : null;
      var shown = fade ? Number(fade.currentTime) || 0 : 0;
      if (fade && fade.playState === "finished") return;
      said.push({ key: formKey(out.closest("form")), html: out.innerHTML, shown: shown });
    });
    var open = [];
    target.querySelectorAll("details[open] > summary").forEach(function (summary) { open.push(summary.textContent.trim()); });
    if (saved.length || said.length || open.length) typed = { id: target.id, saved: saved, said: said, open: open };
  });
  // The push may also come first: the reply then lands in a form no longer on the page (its events never
  // reach the document), so when the request ends its words are copied to the redrawn form of that name.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail.elt, xhr = e.detail.xhr;
    if (!xhr || !form.matches || !form.matches("form.cmd")) return;
    xhr.addEventListener("loadend", function () {
      var out = form.querySelector(".form-msg");
      if (document.body.contains(form) || !out || !out.innerHTML.trim()) return;
      var key = formKey(form);
      var now = Array.prototype.find.call(document.querySelectorAll("form.cmd"), function (f) { return formKey(f) === key; });
      if (!now) return;
      if (xhr.status >= 200 && xhr.status < 300) done(now);
      now.querySelector(".form-msg").innerHTML = out.innerHTML;
    });
  });
  function restoreTyped() {
    if (!typed) return;
    var block = document.getElementById(typed.id);
    var saved = typed.saved, said = typed.said || [], open = typed.open || [];
    typed = null;
    if (!block) return;
    block.querySelectorAll("details > summary").forEach(function (summary) {
      if (open.indexOf(summary.textContent.trim()) >= 0) summary.parentElement.open = true;
    });
    said.forEach(function (item) {
      var form = Array.prototype.find.call(block.querySelectorAll("form.cmd"), function (f) { return formKey(f) === item.key; });
      var out = form && form.querySelector(".form-msg");
      if (!out || out.innerHTML.trim()) return;
      out.innerHTML = item.html;
      if (item.shown && out.firstElementChild) out.firstElementChild.style.animationDelay = -item.shown + "ms";
    });
    var fields = {};
    block.querySelectorAll("form input:not([type=hidden]), form textarea, form select").forEach(function (field) {
      var key = fieldKey(field);
      (fields[key] = fields[key] || []).push(field);
    });
    saved.forEach(function (item) {
      var field = (fields[item.key] || []).shift();
      if (!field || changed(field)) return;
      if (field.type === "checkbox" || field.type === "radio") field.checked = item.checked;
      else field.value = item.value;
      if (item.focus) {
        field.focus();
        try { field.setSelectionRange(item.start, item.end); } catch (err) { /* not a text field */ }
      }
    });
  }

  // Phones buzz when it becomes your turn (the log is a polite live region for screen readers).
  var myTurn = false;
  var prompts = []; // the questions this phone was last shown
  function promptsOf(status) { return (status.dataset.prompts || "").split(" ").filter(Boolean); }
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    restoreTyped();
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
    if (navigator.onLine === false) setPill("offline", "offline");
    var status = document.getElementById("status");
    myTurn = !!(status && status.hasAttribute("data-my-turn"));
    prompts = status ? promptsOf(status) : [];
  }
  if (window.htmx) start(); else document.addEventListener("DOMContentLoaded", start);
})();
