/* The outbox: a round whose save got no answer is kept on the phone (localStorage) with its
 * idempotency key and sent again by itself when the connection returns; the server answers
 * a key it has seen with the round it stored, so nothing is stored twice; a round undone or
 * corrected on another phone since it was sent is not stored again: the phone says so in
 * sight, the entry kept in the form to save again.
 *
 * A save is put in the outbox before it leaves, keyed by its idempotency key, and taken out
 * when the server answers (saved, already saved, or refused with a message). A save that
 * got no answer stays, and is sent again: when the connection returns, every few seconds
 * while some wait, and when the table page opens. Saving the same form again replaces its
 * entry (same key). Where the browser has Background Sync, the service worker (static/sw.js)
 * is handed the round too, and sends it even with the page closed (the same key: stored
 * once). */
(function () {
  "use strict";
  const T = window.tablescore;

  const OUTBOX = "tablescore-outbox";
  const RETRY_MS = 4000;
  let sending = false;
  let inFlight = null; /* the key of a save htmx is sending now: not "waiting" yet */
  let lastFailure = 0;

  function readOutbox() {
    try {
      const items = JSON.parse(window.localStorage.getItem(OUTBOX) || "[]");
      return Array.isArray(items) ? items : [];
    } catch (error) {
      return [];
    }
  }
  function writeOutbox(items) {
    try {
      if (items.length) window.localStorage.setItem(OUTBOX, JSON.stringify(items));
      else window.localStorage.removeItem(OUTBOX);
    } catch (error) { /* private mode, storage full: the form still holds the entry */ }
    showOutbox();
  }
  function waiting() {
    const token = T.pageToken();
    return readOutbox().filter(function (item) { return item.token === token && item.key !== inFlight; });
  }
  function putInOutbox(item) {
    writeOutbox(readOutbox().filter(function (other) { return other.key !== item.key; }).concat([item]));
  }
  function takeOut(key) {
    writeOutbox(readOutbox().filter(function (item) { return item.key !== key; }));
    toWorker({ type: "done", key: key });
  }

  /* Background Sync: a round waiting is handed to the service worker too, which sends it when
   * the connection returns even with this page closed (the same key: stored once). */
  function backgroundSync() {
    return Boolean(navigator.serviceWorker && navigator.serviceWorker.controller && "SyncManager" in window);
  }
  function toWorker(message) {
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage(message);
    }
  }
  function queueInBackground(key) {
    const item = readOutbox().find(function (one) { return one.key === key; });
    if (item && backgroundSync()) toWorker({ type: "queue", item: item });
  }
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      const data = event.data || {};
      if (data.type !== "sent" || !data.key) return;
      writeOutbox(readOutbox().filter(function (item) { return item.key !== data.key; }));
      if (data.token === T.pageToken()) answered(data.html || "");
    });
  }

  function showOutbox() {
    const bar = document.querySelector("[data-outbox]");
    const page = T.tablePage();
    if (!bar || !page) return;
    const items = waiting();
    bar.hidden = !items.length;
    if (!items.length) return;
    const words = [page.dataset.saidWord || page.dataset.word, page.dataset.saidWords || page.dataset.words];
    const count = items.length;
    bar.querySelector("[data-outbox-count]").textContent = interpolate(
      ngettext("%(count)s %(words)s waiting to send", "%(count)s %(words)s waiting to send", count),
      { count: count, words: count === 1 ? words[0] : words[1] }, true);
    const word = words[0].charAt(0).toUpperCase() + words[0].slice(1);
    bar.querySelector("[data-outbox-what]").textContent = items.map(function (item) {
      const round = word + " " + item.number;
      return item.what ? interpolate(gettext("%(label)s: %(value)s"), { label: round, value: item.what }, true) : round;
    }).join(" · ");
    const first = word + " " + items[0].number;
    bar.querySelector("[data-outbox-why]").textContent = backgroundSync()
      ? interpolate(gettext("%(first)s is sent in the background as soon as the connection returns, even with this page closed."), { first: first }, true)
      : interpolate(gettext("%(first)s is sent when the connection returns, while this table is open on this phone."), { first: first }, true);
  }

  /* The round itself, as a line for the outbox: the preview's changes when it came in
   * ("Team A +65 → −135, Team B ..."), else what was chosen and typed ("Bidder: Ben, Bid: 200,
   * Team B: 200, Team A: 100"), never the preview's placeholder. */
  function roundText(form, preview) {
    const words = T.words;
    const chips = preview && !preview.querySelector(".preview-missing")
      ? Array.prototype.map.call(preview.querySelectorAll(".delta-chip"), words) : [];
    if (chips.length) return chips.join(", ");
    if (!form) return "";
    const parts = [];
    form.querySelectorAll("fieldset[data-field]").forEach(function (field) {
      const chosen = Array.prototype.map.call(field.querySelectorAll("input:checked"), function (input) {
        const label = input.closest("label");
        return words(label && label.querySelector(".chip-label")) || words(label);
      }).filter(Boolean);
      const legend = field.querySelector("legend");
      if (chosen.length && legend) {
        parts.push(interpolate(gettext("%(label)s: %(value)s"), { label: words(legend).replace(/\s*\(.*\)$/, ""), value: chosen.join(" & ") }, true));
      }
    });
    form.querySelectorAll("input[type=number]").forEach(function (input) {
      if (input.value === "" || input.disabled || input.classList.contains("auto")) return;
      const label = input.getAttribute("aria-label") || words(input.id && form.querySelector('label[for="' + input.id + '"]'));
      if (label) parts.push(interpolate(gettext("%(label)s: %(value)s"), { label: label, value: input.value }, true));
    });
    return parts.join(", ");
  }

  /* The saves the outbox looks after: a round form's Save or Misdeal, sent with its key. */
  function trackedSave(detail) {
    const elt = detail.elt;
    if (!elt || !elt.closest || detail.verb !== "post" || !detail.formData) return null;
    if (!elt.matches("form[data-entry], form[data-entry] .misdeal")) return null;
    const key = detail.formData.get("key");
    const action = detail.formData.get("action") || "save";
    if (!key || action === "preview") return null;
    return key;
  }

  document.addEventListener("htmx:configRequest", function (event) {
    const detail = event.detail;
    const key = trackedSave(detail);
    if (!key || !T.pageToken()) return;
    const preview = document.getElementById("preview");
    const body = [];
    detail.formData.forEach(function (value, name) { if (typeof value === "string") body.push([name, value]); });
    inFlight = key;
    putInOutbox({
      token: T.pageToken(),
      key: key,
      url: detail.path,
      number: detail.formData.get("number"),
      action: detail.formData.get("action") || "save",
      body: body,
      what: roundText(detail.elt.closest("form[data-entry]"), preview),
      at: Date.now(),
    });
    sending = true;
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    const config = event.detail.requestConfig;
    if (!config) return;
    const key = trackedSave(config);
    if (!key) return;
    sending = false;
    inFlight = null;
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status && status < 500 && status !== 429) {
      takeOut(key); /* the server answered: saved, saved before, or refused with a message */
    } else {
      lastFailure = Date.now();
      queueInBackground(key);
      showOutbox();
    }
  });

  /* The server's answer to a round sent from the outbox (by the page or by the service
   * worker): the round form as it now stands, with "saved" or the clash in sight. */
  function answered(html) {
    const entry = document.getElementById("entry");
    if (entry && window.htmx && html.indexOf('id="entry"') >= 0) {
      window.htmx.swap(entry, html, { swapStyle: "outerHTML" });
      T.setOffline(false);
      const saved = document.querySelector("#entry .notice.ok");
      const clash = document.querySelector("#entry .conflict");
      if (saved) T.savedInSight(document.getElementById("entry"));
      /* a clash (another phone's round, or this round undone or corrected meanwhile): in
       * sight, its top first, clear of the top bar and the Save bar */
      else if (clash) T.inSight(clash);
    } else {
      document.body.dispatchEvent(new CustomEvent("table-changed", { bubbles: true }));
    }
    T.keepPage();
  }

  /* Send what waits for this table again, one at a time, in the order saved. */
  function flush() {
    const items = waiting();
    if (sending || !items.length || navigator.onLine === false) return;
    const item = items[0];
    const params = new URLSearchParams();
    item.body.forEach(function (pair) { params.append(pair[0], pair[1]); });
    const csrf = params.get("csrfmiddlewaretoken") || "";
    sending = true;
    fetch(item.url, {
      method: "POST",
      body: params,
      credentials: "same-origin",
      headers: { "HX-Request": "true", "HX-Target": "entry", "HX-Current-URL": window.location.href, "X-CSRFToken": csrf },
    }).then(function (response) {
      if (response.status >= 500 || response.status === 429) throw new Error("error " + response.status);
      return response.text().then(function (html) {
        sending = false;
        takeOut(item.key);
        answered(html);
        window.setTimeout(flush, 0);
      });
    }).catch(function () {
      sending = false;
      lastFailure = Date.now();
      queueInBackground(item.key);
      showOutbox();
    });
  }
  window.addEventListener("online", function () { window.setTimeout(flush, 1500); });
  window.setInterval(function () {
    if (Date.now() - lastFailure >= RETRY_MS - 100) flush();
  }, RETRY_MS);
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-outbox-send]")) flush();
  });

  /* A page opened (or reloaded offline) with a round kept for it: the kept entry goes back
   * into the round form when the form is for the same round. */
  function restoreKept() {
    const items = waiting();
    const form = document.querySelector("#entry form[data-entry]");
    if (!items.length || !form) return;
    const number = form.querySelector("input[name=number]");
    const item = items.find(function (one) { return number && one.number === number.value && one.action === "save"; });
    if (!item) return;
    const values = {};
    item.body.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.name === "csrfmiddlewaretoken" || field.type === "submit" || field.type === "button") return;
      const given = values[field.name];
      if (field.type === "radio" || field.type === "checkbox") {
        field.checked = Boolean(given && given.indexOf(field.value) >= 0);
      } else if (given) {
        field.value = given[0];
      } else if (field.type !== "hidden") {
        field.value = "";
      }
    });
    form.dataset.dirty = "1";
    Array.prototype.forEach.call(form.elements, function (field) {
      if (field.name && field.type !== "hidden") field.dispatchEvent(new Event("change", { bubbles: true }));
    });
    T.sync(form, null);
  }

  T.waiting = waiting;
  T.showOutbox = showOutbox;
  T.restoreKept = restoreKept;
  T.flush = flush;
})();
