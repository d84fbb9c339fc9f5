/* Tablescore's service worker: the table, the start page, "My games", the new-game page and
 * view links open without a connection.
 *
 * - a table page (/t/<token>/) comes from the network when it can, and its latest copy is
 *   kept; without a connection the kept copy is shown (its scoreboard as last seen)
 * - the start page (/, where the installed app opens), "My games" (/games/), the new-game
 *   page (/games/new/) and a view link (/v/<token>/) the same way: the network first, the
 *   kept copy without a connection, so a player who closed the tab finds their table again.
 *   The first three are fetched and kept when the worker is installed, and a view link open
 *   as it starts is fetched again and kept; with each of these pages its styles, scripts
 *   and icons are kept too, so the kept copy opens as it looked
 * - a view link's copy is fetched again when its scoreboard changes (its poll answers with
 *   a new scoreboard), as a table page asks for its own
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
const VIEW_PAGE = /^\/v\/[A-Za-z0-9_-]+\/$/;
const VIEW_LIVE = /^(\/v\/[A-Za-z0-9_-]+\/)live\/$/;
/* The pages a player opens to find a table: kept when the worker is installed. */
const APP_PAGES = ["/", "/games/", "/games/new/"];

function isAppPage(path) {
  return APP_PAGES.indexOf(path) !== -1;
}

/* Every page this worker keeps a copy of. */
function isKeptPage(path) {
  return TABLE_PAGE.test(path) || VIEW_PAGE.test(path) || isAppPage(path);
}

self.addEventListener("install", function (event) {
  self.skipWaiting();
  /* Without a connection (or with a page failing) the worker is installed all the same. */
  event.waitUntil(Promise.all(APP_PAGES.map(function (path) {
    return fetch(path, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return keepPage(self.location.origin + path, response); })
      .catch(function () { return null; });
  })));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(
        names.filter(function (name) { return name !== CACHE; }).map(function (name) { return caches.delete(name); })
      );
    }).then(function () { return self.clients.claim(); }).then(keepOpenPages)
  );
});

/* The pages already open when the worker starts (a view link opened for the first time, say)
 * were fetched without it: they are fetched again and kept. A table page asks by itself. */
function keepOpenPages() {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (pages) {
    return Promise.all(pages.map(function (page) {
      const url = new URL(page.url);
      if (url.origin !== self.location.origin || url.search || TABLE_PAGE.test(url.pathname)) return null;
      if (!isKeptPage(url.pathname) || isAppPage(url.pathname)) return null;
      const plain = url.origin + url.pathname;
      return fetch(plain, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
        return keepPage(plain, response);
      }).catch(function () { return null; });
    }));
  }).catch(function () { return null; });
}

/* Static files, and Django's JavaScript catalogue of each language (/jsi18n/fr-ca.js):
 * its address names its language, so a kept copy is the right one. */
function isStatic(url) {
  return url.pathname.indexOf("/static/") === 0 || url.pathname.indexOf("/jsi18n/") === 0;
}

function keep(request, response) {
  if (!response || response.status !== 200 || response.type !== "basic") return;
  const copy = response.clone();
  caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
}

/* The styles, scripts and icons a page names (under /static/, and a language's catalogue
 * under /jsi18n/), each kept once. */
const STATIC_NAMED = /(?:src|href)="(\/(?:static|jsi18n)\/[^"]+)"/g;

function keepStaticsOf(html) {
  const urls = [];
  let found;
  STATIC_NAMED.lastIndex = 0;
  while ((found = STATIC_NAMED.exec(html)) !== null) {
    urls.push(new URL(found[1].replace(/&amp;/g, "&"), self.location.origin).href);
  }
  return caches.open(CACHE).then(function (cache) {
    return Promise.all(urls.map(function (href) {
      return cache.match(href).then(function (kept) {
        if (kept) return null;
        return fetch(href, { credentials: "same-origin" }).then(function (response) {
          return response.status === 200 ? cache.put(href, response) : null;
        }).catch(function () { return null; });
      });
    }));
  });
}

/* A page's copy, with what it needs to open as it looked. A redirected answer is not kept: a
 * browser opens no page from one. */
function keepPage(key, response) {
  if (!response || response.status !== 200 || response.type !== "basic" || response.redirected) {
    return Promise.resolve(null);
  }
  const copy = response.clone();
  const text = response.clone().text();
  return caches.open(CACHE).then(function (cache) {
    return cache.put(key, copy);
  }).then(function () {
    return text.then(keepStaticsOf);
  }).catch(function () { return null; });
}

/* A kept page: the network first (and its copy kept), the kept copy without a connection. A
 * page asked for with a query (/games/new/?game=...) is not kept; without a connection the
 * plain page's copy is shown. */
function keptPage(event) {
  const request = event.request;
  const url = new URL(request.url);
  const plain = url.origin + url.pathname;
  return fetch(request).then(function (response) {
    if (TABLE_PAGE.test(url.pathname)) {
      keep(plain, response);
    } else if (!url.search) {
      event.waitUntil(keepPage(plain, response));
    }
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

/* A view link's poll: a new scoreboard (200, not 204) refreshes the view link's kept copy. */
function viewLive(event) {
  const url = new URL(event.request.url);
  const page = url.origin + url.pathname.replace(VIEW_LIVE, "$1");
  return fetch(event.request).then(function (response) {
    if (response.status === 200) {
      event.waitUntil(caches.open(CACHE).then(function (cache) {
        return cache.match(page).then(function (kept) {
          if (!kept) return null;
          return fetch(page, { credentials: "same-origin", cache: "no-store" }).then(function (fresh) {
            return keepPage(page, fresh);
          });
        });
      }).catch(function () { return null; }));
    }
    return response;
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && isKeptPage(url.pathname)) {
    event.respondWith(keptPage(event));
  } else if (VIEW_LIVE.test(url.pathname)) {
    event.respondWith(viewLive(event));
  } else if (isStatic(url)) {
    event.respondWith(staticFile(request));
  }
});

/* {type: "keep", urls: [...]}: fetch these now and keep them (a table page after a change,
 * the styles and scripts of the page shown; any page this worker keeps). */
self.addEventListener("message", function (event) {
  const data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  const work = caches.open(CACHE).then(function (cache) {
    return Promise.all(data.urls.map(function (href) {
      const url = new URL(href, self.location.origin);
      if (url.origin !== self.location.origin) return null;
      if (!isKeptPage(url.pathname) && !isStatic(url)) return null;
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
