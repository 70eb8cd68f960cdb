/* Fray's service worker: a reload during an outage shows the table as this phone last saw it, not the
   browser's error page. Pages and static files come from the network first (always fresh when it
   answers); what they were is kept, and given back when the network fails or stalls. fray.js writes
   the table's latest state into the same cache as the pushes arrive. Commands (POST) never come here. */
"use strict";
var PAGES = "fray-pages", STATIC = "fray-static", WAIT = 4000;

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (e) { e.waitUntil(self.clients.claim()); });

// The page a copy stands in for says so (fray.js makes it read-only, marked offline).
function asCopy(response) {
  return response.text().then(function (html) {
    return new Response(html.replace("<body", "<body data-offline-copy"), { headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

// The network, unless it fails or (when there is a copy to give) stalls past WAIT.
function fresh(request, cacheName, key, keep) {
  return caches.open(cacheName).then(function (cache) {
    return cache.match(key).then(function (kept) {
      var net = fetch(request).then(function (r) {
        if (keep && r.ok) cache.put(key, r.clone()).then(function () { forgetOld(cache, request.url); });
        return r;
      });
      if (!kept) return net;
      var late = new Promise(function (resolve) { setTimeout(function () { resolve(null); }, WAIT); });
      return Promise.race([net.catch(function () { return null; }), late]).then(function (r) {
        return r || (cacheName === PAGES ? asCopy(kept) : kept);
      });
    });
  });
}

// A static file is kept in one version: the one the pages name now (?v= changes with each release).
function forgetOld(cache, url) {
  var path = new URL(url).pathname;
  cache.keys().then(function (keys) {
    keys.forEach(function (k) { if (k.url !== url && new URL(k.url).pathname === path) cache.delete(k); });
  });
}

self.addEventListener("fetch", function (e) {
  var request = e.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) {
    e.respondWith(fresh(request, STATIC, request, true));
  } else if (request.mode === "navigate" && /^\/c\/[^/]+\/(play|gm|table)$/.test(url.pathname)) {
    // Pages are kept by fray.js (the state the phone saw last), not as the server first sent them.
    e.respondWith(fresh(request, PAGES, url.pathname, false).catch(function () {
      return new Response("<!doctype html><meta name=viewport content='width=device-width'><p>Offline, and this page was never opened on this phone.</p>",
                          { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    }));
  }
});
