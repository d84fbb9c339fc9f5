/* Tablescore's service worker: a table page opens without a connection.
 *
 * - a table page (/t/<token>/) comes from the network when it can, and its latest copy is
 *   kept; without a connection the kept copy is shown (its scoreboard as last seen)
 * - static files (styles, scripts, icons) are kept once fetched: the kept copy is served and
 *   refreshed behind it
 * - the table page asks for its own copy to be refreshed when its scoreboard changes, and
 *   for its styles and scripts to be kept ("keep" messages)
 * - a round saved without a connection is sent in the background when it returns (below)
 * - nothing else is touched: saves, polls and every other page go to the network as usual
 */
"use strict";

/* Named anew when kept copies would clash with the files that replace them: a page kept under
 * unhashed names (DEBUG, STATIC_MANIFEST=0) would load the old table.js beside the scripts
 * now under js/table/ (v2). Activating drops every other cache. */
const CACHE = "tablescore-v2";
const TABLE_PAGE = /^\/t\/[A-Za-z0-9_-]+\/$/;

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(
        names.filter(function (name) { return name !== CACHE; }).map(function (name) { return caches.delete(name); })
      );
    }).then(function () { return self.clients.claim(); })
  );
});

function isStatic(url) {
  return url.pathname.indexOf("/static/") === 0;
}

function keep(request, response) {
  if (!response || response.status !== 200 || response.type !== "basic") return;
  const copy = response.clone();
  caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
}

/* A table page: the network first (and its copy kept), the kept copy without a connection. */
function tablePage(request) {
  const url = new URL(request.url);
  const plain = url.origin + url.pathname;
  return fetch(request).then(function (response) {
    keep(plain, response);
    return response;
  }).catch(function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(plain); }).then(function (kept) {
      return kept || Response.error();
    });
  });
}

/* A static file: the kept copy at once (refreshed behind it), else the network. */
function staticFile(request) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request).then(function (kept) {
      const fresh = fetch(request).then(function (response) {
        keep(request, response);
        return response;
      });
      if (!kept) return fresh;
      fresh.catch(function () { /* offline: the kept copy does */ });
      return kept;
    });
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && TABLE_PAGE.test(url.pathname)) {
    event.respondWith(tablePage(request));
  } else if (isStatic(url)) {
    event.respondWith(staticFile(request));
  }
});

/* {type: "keep", urls: [...]}: fetch these now and keep them (a table page after a change,
 * the styles and scripts of the page shown). */
self.addEventListener("message", function (event) {
  const data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  const work = caches.open(CACHE).then(function (cache) {
    return Promise.all(data.urls.map(function (href) {
      const url = new URL(href, self.location.origin);
      if (url.origin !== self.location.origin) return null;
      if (!TABLE_PAGE.test(url.pathname) && !isStatic(url)) return null;
      return fetch(url.href, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
        if (response.status === 200) return cache.put(url.origin + url.pathname + (isStatic(url) ? url.search : ""), response);
        return null;
      }).catch(function () { return null; });
    }));
  });
  if (event.waitUntil) event.waitUntil(work);
});

/* ---------------------------------------------------------------- background sync */
/* A round saved without a connection is queued here too (the page sends {type: "queue",
 * item}), in IndexedDB, with a Background Sync registration where the browser has one: the
 * browser wakes this worker when the connection returns, even with the table closed, and
 * each round is sent with its idempotency key (stored once, whoever sends it first). An
 * answer (saved, saved before, refused with a message, or not stored again because another
 * phone undid or corrected that round since) takes it out of the queue and tells the open
 * pages, which show it in the round form; with no page open, the page's own outbox still
 * holds the round and sends it when the table opens, to be told the same. No answer, an
 * error 5xx or 429 leaves it for the next try. */
const SYNC_TAG = "tablescore-outbox";
const QUEUE_DB = "tablescore";
const QUEUE = "outbox";

function queueDb() {
  return new Promise(function (resolve, reject) {
    const opening = indexedDB.open(QUEUE_DB, 1);
    opening.onupgradeneeded = function () { opening.result.createObjectStore(QUEUE, { keyPath: "key" }); };
    opening.onsuccess = function () { resolve(opening.result); };
    opening.onerror = function () { reject(opening.error); };
  });
}

function queueDo(mode, work) {
  return queueDb().then(function (db) {
    return new Promise(function (resolve, reject) {
      const tx = db.transaction(QUEUE, mode);
      const result = work(tx.objectStore(QUEUE));
      tx.oncomplete = function () { db.close(); resolve(result && "result" in result ? result.result : undefined); };
      tx.onerror = function () { db.close(); reject(tx.error); };
    });
  });
}

function tell(message) {
  return self.clients.matchAll({ type: "window" }).then(function (pages) {
    pages.forEach(function (page) { page.postMessage(message); });
  });
}

function sendQueued(item) {
  const body = new URLSearchParams();
  item.body.forEach(function (pair) { body.append(pair[0], pair[1]); });
  return fetch(item.url, {
    method: "POST",
    body: body,
    credentials: "same-origin",
    headers: { "HX-Request": "true", "HX-Target": "entry", "X-CSRFToken": body.get("csrfmiddlewaretoken") || "" },
  }).then(function (response) {
    if (response.status >= 500 || response.status === 429) throw new Error("error " + response.status);
    return response.text().then(function (html) {
      return queueDo("readwrite", function (store) { store.delete(item.key); }).then(function () {
        return tell({ type: "sent", key: item.key, token: item.token, number: item.number, html: html });
      });
    });
  });
}

function sendAll() {
  return queueDo("readonly", function (store) { return store.getAll(); }).then(function (items) {
    items.sort(function (a, b) { return a.at - b.at; });
    /* one at a time, in the order saved: a later round waits for the one before it */
    return items.reduce(function (chain, item) {
      return chain.then(function () { return sendQueued(item); });
    }, Promise.resolve());
  });
}

self.addEventListener("sync", function (event) {
  if (event.tag === SYNC_TAG) event.waitUntil(sendAll());
});

self.addEventListener("message", function (event) {
  const data = event.data || {};
  let work = null;
  if (data.type === "queue" && data.item && data.item.key) {
    work = queueDo("readwrite", function (store) { store.put(data.item); }).then(function () {
      return self.registration.sync ? self.registration.sync.register(SYNC_TAG) : null;
    });
  } else if (data.type === "done" && data.key) {
    work = queueDo("readwrite", function (store) { store.delete(data.key); });
  }
  if (work && event.waitUntil) event.waitUntil(work.catch(function () { return null; }));
});
