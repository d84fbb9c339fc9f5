/* Tablescore at the table: small helpers around the htmx forms. No build step.
 *
 * - keeps the screen awake while a game is open (Wake Lock, where the browser has it)
 * - steppers and quick picks for numbers
 * - points that are "the rest of" a total (the total read from the field's data-total)
 * - a game's own script (static/js/games/<game>.js) registers what its form does
 * - a form being filled in is not replaced when another phone records a round
 * - a field in focus is kept clear of the Save bar; after a save the scoreboard is in sight
 * - a pad that says data-save-when-full saves the round by itself a few seconds after a tap
 *   fills its last box (the Save button counts down beside a Wait button)
 * - a save without a connection says so and keeps the entry (the same key: stored once);
 *   an "offline" badge while the scoreboard cannot be polled
 * - the outbox: a round whose save got no answer is kept on the phone (localStorage) with its
 *   idempotency key and sent again by itself when the connection returns; the server answers
 *   a key it has seen with the round it stored, so nothing is stored twice; a round undone
 *   or corrected on another phone since it was sent is not stored again: the phone says so
 *   in sight, the entry kept in the form to save again
 * - the service worker keeps the table page (and its last scoreboard) for a reload offline,
 *   and sends a waiting round in the background (Background Sync) where the browser allows
 * - back on the start page, the setup of the game chosen comes back
 */
(function () {
  "use strict";

  /* ---------------------------------------------------------------- wake lock */
  let wakeLock = null;
  async function keepAwake() {
    if (!("wakeLock" in navigator) || !document.querySelector("[data-wake-lock]")) return;
    if (document.visibilityState !== "visible" || wakeLock) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", function () { wakeLock = null; });
    } catch (error) {
      wakeLock = null; /* refused (battery saver, no gesture yet): the game goes on */
    }
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("click", keepAwake, { once: true });

  /* ---------------------------------------------------------------- helpers */
  function fire(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function num(input) {
    const value = parseInt(input.value, 10);
    return Number.isNaN(value) ? null : value;
  }
  /* A form the user has typed or tapped in is never replaced by a refresh. */
  function touch(input) {
    const form = input.closest("form[data-entry]");
    if (form) form.dataset.dirty = "1";
  }
  function touched(form) {
    if (!form) return false;
    const active = document.activeElement;
    const typing = active && form.contains(active) && active.matches("input, select, textarea");
    return Boolean(form.dataset.dirty || typing);
  }
  function clamp(value, input) {
    const min = input.min === "" ? -Infinity : Number(input.min);
    const max = input.max === "" ? Infinity : Number(input.max);
    return Math.min(max, Math.max(min, value));
  }

  /* ---------------------------------------------------------------- steppers, quick picks */
  document.addEventListener("click", function (event) {
    const step = event.target.closest("[data-step]");
    if (step) {
      const input = step.closest("[data-stepper]").querySelector("input");
      if (input.disabled) return;
      touch(input);
      const by = Number(step.dataset.step);
      const current = num(input);
      const lowest = Number(input.min || 0);
      /* from empty: "+" gives the first step up (the minimum bid, one trick), "-" the minimum */
      const next = current === null ? (by > 0 ? Math.max(lowest, by) : lowest) : current + by;
      input.value = clamp(next, input);
      fire(input);
      return;
    }
    const pick = event.target.closest("[data-set]");
    if (pick) {
      const form = pick.closest("form");
      const input = form.querySelector('[name="' + pick.dataset.set + '"]');
      touch(input);
      input.value = pick.dataset.value;
      fire(input);
      return;
    }
    const copy = event.target.closest("[data-copy]");
    if (copy) {
      const field = document.querySelector(copy.dataset.copy);
      const done = function () { copy.textContent = "Copied"; };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
      } else {
        field.select();
        document.execCommand("copy");
        done();
      }
      return;
    }
    const share = event.target.closest("[data-share]");
    if (share && navigator.share) {
      navigator.share({ title: share.dataset.shareTitle, url: share.dataset.share }).catch(function () {});
    }
  });

  /* What each game's own script registers: sync(form, changed) after every input,
   * change(form, event) for a change it answers, and complete(form), whether the round is
   * whole as far as the page can tell (a round saved by itself waits for it). */
  const games = [];
  function sync(form, changed) {
    games.forEach(function (game) { if (game.sync) game.sync(form, changed); });
  }
  window.tablescore = {
    register: function (game) { games.push(game); },
    num: num,
  };

  document.addEventListener("input", function (event) {
    const form = event.target.closest("form[data-entry]");
    if (!form) return;
    if (event.isTrusted) form.dataset.dirty = "1";
    sync(form, event.target);
  });

  document.addEventListener("change", function (event) {
    const form = event.target.closest("form[data-entry]");
    if (!form) return;
    if (event.isTrusted) form.dataset.dirty = "1";
    games.forEach(function (game) { if (game.change) game.change(form, event); });
    sync(form, event.target);
  });

  /* ---------------------------------------------------------------- focus above the Save bar */
  /* The Save bar stays at the bottom of the screen: a field being filled in is scrolled
   * above it (and below the top bar). */
  function keepInSight(field) {
    const form = field.closest("form[data-entry]");
    const bar = form && form.querySelector(".actions");
    if (!bar || bar.contains(field)) return;
    const box = field.getBoundingClientRect();
    const view = window.visualViewport ? window.visualViewport.height : window.innerHeight;
    const bottom = Math.min(bar.getBoundingClientRect().top, view) - 12;
    const topbar = document.querySelector(".topbar");
    const top = (topbar ? topbar.getBoundingClientRect().bottom : 0) + 8;
    if (box.bottom > bottom) window.scrollBy(0, Math.min(box.bottom - bottom, box.top - top));
    else if (box.top < top) window.scrollBy(0, box.top - top);
  }
  document.addEventListener("focusin", function (event) {
    const field = event.target;
    if (!field.matches || !field.matches("form[data-entry] input, form[data-entry] select, form[data-entry] textarea")) return;
    if (field.type === "radio" || field.type === "checkbox") return;
    keepInSight(field);
    window.setTimeout(function () { if (document.activeElement === field) keepInSight(field); }, 350);
  });

  /* ---------------------------------------------------------------- connection trouble */
  const SENT_BY_ITSELF = "It is kept on this phone and sent by itself when the connection is back.";
  const TOO_MANY = "Too many requests from this address just now: nothing was changed and what you typed is kept. Try again ";
  /* "in 40 seconds", "in 3 minutes", "at 21:05", from an answer's Retry-After */
  function retryAfter(xhr) {
    return retryAfterText(xhr && xhr.getResponseHeader ? xhr.getResponseHeader("Retry-After") : null);
  }
  function retryAfterText(header) {
    if (!header) return "in a little while";
    let seconds = Number(header);
    if (Number.isNaN(seconds)) seconds = Math.max(0, (Date.parse(header) - Date.now()) / 1000);
    if (Number.isNaN(seconds)) return "in a little while";
    if (seconds < 90) return "in " + Math.max(1, Math.ceil(seconds)) + " seconds";
    if (seconds < 3600) return "in " + Math.ceil(seconds / 60) + " minutes";
    const at = new Date(Date.now() + seconds * 1000);
    return "at " + at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }
  function busy(event) {
    const xhr = event.detail.xhr;
    return xhr && xhr.status === 429;
  }
  function reason(event, kind) {
    if (kind === "timeout") return "the connection timed out";
    if (kind === "response") {
      const status = event.detail.xhr ? event.detail.xhr.status : 0;
      return "the server had a problem" + (status ? " (error " + status + ")" : "");
    }
    return "no connection";
  }
  function setOffline(offline) {
    document.querySelectorAll("[data-offline]").forEach(function (badge) { badge.hidden = !offline; });
  }
  function pageNotice(text) {
    let notice = document.querySelector("[data-net-error]");
    if (!notice && !text) return;
    if (!notice) {
      notice = document.createElement("p");
      notice.className = "notice error net-error";
      notice.setAttribute("role", "alert");
      notice.setAttribute("data-net-error", "");
      document.body.appendChild(notice);
    }
    notice.textContent = text;
    notice.hidden = !text;
  }
  function failed(event, kind) {
    const elt = event.detail.elt;
    if (!elt || !elt.closest) return;
    if (kind !== "response" || elt.matches("[data-live-poll]")) setOffline(true);
    if (elt.matches("[data-live-poll]") || elt.id === "entry") return; /* tried again by itself */
    if (kind === "response" && busy(event)) {
      /* too many requests from this address (a venue shares one): nothing typed is lost */
      const when = retryAfter(event.detail.xhr);
      if (elt.id === "preview") {
        elt.innerHTML = '<p class="small muted"></p>';
        elt.firstChild.textContent = "No preview for now: too many requests. Try again " + when + ".";
        return;
      }
      const form = elt.closest("form[data-entry]");
      const banner = form && form.querySelector("[data-send-error]");
      if (banner && elt.matches("form[data-entry], form[data-entry] .misdeal")) {
        banner.textContent = "Not saved yet: too many requests from this address just now. It is kept on this phone and sent again by itself; or tap Save again " + when + ".";
        banner.hidden = false;
        return;
      }
      pageNotice(TOO_MANY + when + ".");
      return;
    }
    const why = reason(event, kind);
    if (elt.id === "preview") {
      elt.innerHTML = '<p class="small muted"></p>';
      elt.firstChild.textContent = "No preview: " + why + ".";
      return;
    }
    const saving = elt.matches("form[data-entry], form[data-entry] .misdeal");
    const banner = saving && elt.closest("form[data-entry]").querySelector("[data-send-error]");
    if (banner) {
      banner.textContent = "Not saved yet: " + why + ". " + SENT_BY_ITSELF;
      banner.hidden = false;
      return;
    }
    pageNotice("Not done: " + why + ". Tap again.");
  }
  document.addEventListener("htmx:sendError", function (event) { failed(event, "send"); });
  document.addEventListener("htmx:timeout", function (event) { failed(event, "timeout"); });
  document.addEventListener("htmx:responseError", function (event) { failed(event, "response"); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful) return;
    setOffline(false);
    pageNotice("");
  });

  /* ---------------------------------------------------------------- htmx glue */
  /* A name in a narrow column keeps its words whole: where a word of it would break across
   * lines its type is made smaller, step by step down to SMALLEST_NAME of its size (a word
   * longer still breaks, as it did). A name breaks at its spaces and after its hyphens. */
  const SMALLEST_NAME = 0.7;
  function breaksAWord(el) {
    const text = el.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) return false;
    const range = document.createRange();
    const words = /[^\s-]+-?/g;
    let word;
    while ((word = words.exec(text.data))) {
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      const lines = range.getClientRects();
      if (lines.length > 1 && Math.round(lines[0].top) !== Math.round(lines[lines.length - 1].top)) return true;
    }
    return false;
  }
  function fitNames(root) {
    root.querySelectorAll("[data-fit-words]").forEach(function (el) {
      el.style.fontSize = "";
      if (!breaksAWord(el)) return;
      const size = parseFloat(window.getComputedStyle(el).fontSize);
      for (let scale = 0.94; scale > SMALLEST_NAME - 0.01; scale -= 0.06) {
        el.style.fontSize = (size * scale).toFixed(1) + "px";
        if (!breaksAWord(el)) return;
      }
    });
  }
  let fittedWidth = window.innerWidth;
  window.addEventListener("resize", function () {
    /* a phone turned; not the address bar showing or hiding as the page scrolls */
    if (window.innerWidth === fittedWidth) return;
    fittedWidth = window.innerWidth;
    fitNames(document);
  });

  function init(root) {
    root.querySelectorAll("form[data-entry]").forEach(function (form) { sync(form, null); });
    fitNames(root);
    root.querySelectorAll("form[data-entry] .actions").forEach(function (bar) {
      if (bar.closest("form").querySelector("[data-save-when-full]")) countdownStatus(bar);
    });
    const share = root.querySelector ? root.querySelector("[data-share]") : null;
    if (share && navigator.share) share.hidden = false;
  }

  function revisionShown() {
    const live = document.getElementById("live");
    return live ? Number(live.dataset.revision) : -1;
  }
  /* The round clock's key the scoreboard was drawn with: a director's pause or extension
   * changes it, and the poll then brings the scoreboard again with the new clock. */
  function clockShown() {
    const live = document.getElementById("live");
    return live ? live.dataset.shownClock || "" : "";
  }

  function isRefresh(detail) {
    const elt = detail.elt;
    return elt && elt.id === "entry" && detail.requestConfig && detail.requestConfig.verb === "get";
  }

  /* A form being filled in stays as typed. It says a round came in meanwhile only when the
   * fresh form is for another round (a confirmation elsewhere changes nothing in it). */
  function keepTyped(form, freshNumber) {
    const number = form.querySelector("input[name=number]");
    if (number && freshNumber === number.value) return;
    const stale = form.querySelector("[data-stale]");
    if (stale) stale.hidden = false;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    const elt = event.detail.elt;
    if (isRefresh(event.detail)) return;
    const form = elt.closest ? elt.closest("form[data-entry]") : null;
    if (form && elt.id !== "preview") {
      const banner = form.querySelector("[data-send-error]");
      if (banner) banner.hidden = true;
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    /* The game changed on another phone: the fresh form replaces this one only if nothing was
     * typed or tapped in it, as it is when the fresh form arrives (typing may begin while it
     * is on its way). */
    if (isRefresh(detail)) {
      const form = detail.elt.querySelector("form[data-entry]");
      if (touched(form)) {
        detail.shouldSwap = false;
        const found = /name="number" value="(\d+)"/.exec(detail.serverResponse || "");
        keepTyped(form, found ? found[1] : null);
      }
    }
  });

  document.addEventListener("htmx:beforeOnLoad", function (event) {
    /* A poll answers the scoreboard it was asked about. A newer one may have arrived meanwhile
     * (a save, a confirmation, an ending): the late answer is dropped; otherwise it goes to the
     * scoreboard shown now, not to the one replaced while the poll was under way. */
    const detail = event.detail;
    if (!detail.elt.matches || !detail.elt.matches("[data-live-poll]") || !detail.xhr) return;
    let revision = null;
    let clock = "";
    try {
      const changed = JSON.parse(detail.xhr.getResponseHeader("HX-Trigger") || "{}")["table-changed"];
      revision = changed ? Number(changed.revision) : null;
      clock = changed && changed.clock ? String(changed.clock) : "";
    } catch (error) { /* no revision given: swap as usual */ }
    /* The same scoreboard with another clock (a pause, an extension) is swapped too. */
    const older = revision !== null && revision < revisionShown();
    const same = revision !== null && revision === revisionShown() && clock === clockShown();
    if (older || same) {
      event.preventDefault();
      return;
    }
    const live = document.getElementById("live");
    if (live) detail.target = live;
  });

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    const target = event.detail.target;
    if (target && target.id === "entry" && touched(target.querySelector("form[data-entry]"))) {
      event.detail.shouldSwap = false;
      const fresh = event.detail.fragment;
      const number = fresh && fresh.querySelector ? fresh.querySelector("input[name=number]") : null;
      keepTyped(target.querySelector("form[data-entry]"), number ? number.value : null);
    }
  });

  /* After a save: the scoreboard from its top; a round waiting for the other side's
   * confirmation, with its buttons, in sight (sideways it may sit below the scoreboard). */
  function savedInSight(entry) {
    const live = document.getElementById("live");
    (live || entry).scrollIntoView({ block: "start" });
    const pending = live && live.querySelector(".pending");
    if (!pending) return;
    const box = pending.getBoundingClientRect();
    const view = window.visualViewport ? window.visualViewport.height : window.innerHeight;
    if (box.bottom > view) pending.scrollIntoView({ block: box.height < view ? "end" : "start" });
  }

  /* A change asked of the other side from below the scoreboard (undo, reopen, end early):
   * the request, or why it was refused, is shown at the scoreboard and brought into sight. */
  let asking = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    const asker = event.detail.elt;
    if (asker && asker.closest && asker.closest("#recent, #entry") && asker.getAttribute("hx-target") === "#live") {
      asking = true;
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!asking) return;
    asking = false;
    const live = document.getElementById("live");
    const shown = live && live.querySelector("[data-change-error], [data-change-request]");
    if (shown) shown.scrollIntoView({ block: "center" });
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    /* After a save: the scoreboard and the new round in sight; after a refusal: the message. */
    const entry = event.target;
    const config = event.detail.requestConfig;
    if (entry.id !== "entry" || !config || config.verb !== "post") return;
    if (entry.querySelector(".notice.ok")) {
      savedInSight(entry);
      return;
    }
    const problem = entry.querySelector("[role=alert]:not([hidden]), .has-error");
    if (problem) problem.scrollIntoView({ block: "center" });
  });

  /* ---------------------------------------------------------------- saved by itself */
  /* A tap on a pad that says data-save-when-full, filling its last empty box, saves the
   * round a few seconds later when the round is complete: the Save button counts down
   * ("Saving hand 4 in 3…") beside a Wait button, the preview still in sight, and at 0 the
   * Save button is pressed, so the round goes the way of a Save tap (its key, the outbox).
   * Save saves at once; Wait, or any other tap, choice or typing in the form, stops it and
   * the form keeps everything; a form replaced or a page left never saves. */
  const COUNTDOWN = 3; /* seconds */
  let countdown = null;

  function countdownStatus(bar) {
    let status = bar.querySelector("[data-countdown-status]");
    if (!status) {
      /* there before it speaks: a live region added with its words is often not read */
      status = document.createElement("p");
      status.className = "visually-hidden";
      status.setAttribute("role", "status");
      status.setAttribute("data-countdown-status", "");
      bar.appendChild(status);
    }
    return status;
  }
  function complete(form) {
    return form.checkValidity() && games.every(function (game) { return !game.complete || game.complete(form); });
  }
  /* The form, its Save button and nothing said against saving (another phone's round). */
  function canSave(form, save) {
    const stale = form.querySelector("[data-stale]");
    return form.isConnected && save.isConnected && !save.disabled && !(stale && !stale.hidden);
  }
  function showCountdown() {
    const save = countdown.save;
    save.textContent = countdown.saving + " in " + countdown.left + "…";
    /* too long for a narrow screen: the seconds are what matter */
    if (save.scrollWidth > save.clientWidth + 1) save.textContent = "Saving in " + countdown.left + "…";
  }
  function startCountdown(form) {
    const save = form.querySelector("button.save");
    /* a Save button that asks for something else (the desk's correction) is left alone */
    if (!save || !/^Save\b/.test(words(save)) || !canSave(form, save) || !complete(form)) return;
    stopCountdown();
    const wait = document.createElement("button");
    wait.type = "button";
    wait.className = "wait";
    wait.setAttribute("data-wait", "");
    wait.textContent = "Wait";
    save.after(wait);
    const saving = words(save).replace(/^Save/, "Saving");
    countdown = { form: form, save: save, wait: wait, label: save.textContent, saving: saving, left: COUNTDOWN, timer: null };
    save.classList.add("is-counting");
    save.style.setProperty("--countdown", COUNTDOWN + "s");
    showCountdown();
    countdownStatus(form.querySelector(".actions") || form).textContent =
      saving + " in " + COUNTDOWN + " seconds. Tap Wait to keep editing.";
    countdown.timer = window.setTimeout(tick, 1000);
  }
  function tick() {
    if (!countdown) return;
    if (!canSave(countdown.form, countdown.save)) {
      stopCountdown();
      return;
    }
    countdown.left -= 1;
    if (countdown.left > 0) {
      showCountdown();
      countdown.timer = window.setTimeout(tick, 1000);
      return;
    }
    const save = countdown.save;
    stopCountdown();
    save.click(); /* as a tap on Save: htmx sends it with action=save */
  }
  function stopCountdown() {
    if (!countdown) return;
    const stopped = countdown;
    countdown = null;
    window.clearTimeout(stopped.timer);
    stopped.save.textContent = stopped.label;
    stopped.save.classList.remove("is-counting");
    stopped.save.style.removeProperty("--countdown");
    const waitHadFocus = document.activeElement === stopped.wait;
    stopped.wait.remove();
    const status = stopped.form.querySelector("[data-countdown-status]");
    if (status) status.textContent = "";
    if (waitHadFocus && stopped.save.isConnected) stopped.save.focus();
  }

  document.addEventListener("tablescore:pad-full", function (event) {
    const form = event.target.closest("form[data-entry]");
    if (form && event.target.closest("[data-save-when-full]")) startCountdown(form);
  });
  /* (caught on the way down: before the tap does anything, Save included) */
  ["click", "input", "change", "submit"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (!countdown || !countdown.form.contains(event.target)) return;
      if (event.isTrusted || type === "submit") stopCountdown();
    }, true);
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    if (countdown && target && target.contains(countdown.form)) stopCountdown();
  });
  window.addEventListener("pagehide", stopCountdown);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") stopCountdown();
  });

  /* ---------------------------------------------------------------- the outbox */
  /* A save is put in the outbox before it leaves, keyed by its idempotency key, and taken out
   * when the server answers (saved, already saved, or refused with a message). A save that
   * got no answer stays, and is sent again: when the connection returns, every few seconds
   * while some wait, and when the table page opens. Saving the same form again replaces its
   * entry (same key). */
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
  function tablePage() { return document.querySelector(".table-page[data-token]"); }
  function pageToken() { const page = tablePage(); return page ? page.dataset.token : null; }
  function waiting() {
    const token = pageToken();
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
      if (data.token === pageToken()) answered(data.html || "");
    });
  }

  function showOutbox() {
    const bar = document.querySelector("[data-outbox]");
    const page = tablePage();
    if (!bar || !page) return;
    const items = waiting();
    bar.hidden = !items.length;
    if (!items.length) return;
    const words = items.length === 1 ? page.dataset.word : page.dataset.words;
    bar.querySelector("[data-outbox-count]").textContent = items.length + " " + words + " waiting to send";
    const word = page.dataset.word.charAt(0).toUpperCase() + page.dataset.word.slice(1);
    bar.querySelector("[data-outbox-what]").textContent = items.map(function (item) {
      return word + " " + item.number + (item.what ? ": " + item.what : "");
    }).join(" · ");
    const first = word + " " + items[0].number;
    bar.querySelector("[data-outbox-why]").textContent = backgroundSync()
      ? first + " is sent in the background as soon as the connection returns, even with this page closed."
      : first + " is sent when the connection returns, while this table is open on this phone.";
  }

  function words(el) { return el ? el.textContent.replace(/\s+/g, " ").trim() : ""; }

  /* The round itself, as a line for the outbox: the preview's changes when it came in
   * ("Team A +65 → −135, Team B ..."), else what was chosen and typed ("Bidder: Ben, Bid: 200,
   * Team B: 200, Team A: 100"), never the preview's placeholder. */
  function roundText(form, preview) {
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
      if (chosen.length && legend) parts.push(words(legend).replace(/\s*\(.*\)$/, "") + ": " + chosen.join(" & "));
    });
    form.querySelectorAll("input[type=number]").forEach(function (input) {
      if (input.value === "" || input.disabled || input.classList.contains("auto")) return;
      const label = input.getAttribute("aria-label") || words(input.id && form.querySelector('label[for="' + input.id + '"]'));
      if (label) parts.push(label + ": " + input.value);
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
    if (!key || !pageToken()) return;
    const preview = document.getElementById("preview");
    const body = [];
    detail.formData.forEach(function (value, name) { if (typeof value === "string") body.push([name, value]); });
    inFlight = key;
    putInOutbox({
      token: pageToken(),
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
      setOffline(false);
      const saved = document.querySelector("#entry .notice.ok");
      const clash = document.querySelector("#entry .conflict");
      if (saved) savedInSight(document.getElementById("entry"));
      /* a clash (another phone's round, or this round undone or corrected meanwhile): in
       * sight once the swapped parts have settled (htmx settles after 20 ms, then the
       * form's controls are drawn), clear of the top bar and the Save bar */
      else if (clash) window.setTimeout(function () { clash.scrollIntoView({ block: "center" }); }, 100);
    } else {
      document.body.dispatchEvent(new CustomEvent("table-changed", { bubbles: true }));
    }
    keepPage();
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
    sync(form, null);
  }

  /* ---------------------------------------------------------------- the service worker's copy */
  /* The table page asks the service worker to keep a fresh copy of itself (and its styles and
   * scripts) when it opens and whenever its scoreboard changes. */
  let keptRevision = null;
  let keepTimer = null;
  function keepPage() {
    if (!pageToken() || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    window.clearTimeout(keepTimer);
    keepTimer = window.setTimeout(function () {
      keptRevision = revisionShown();
      const urls = [window.location.pathname];
      document.querySelectorAll("script[src], link[rel=stylesheet], link[rel=icon]").forEach(function (el) {
        urls.push(el.src || el.href);
      });
      navigator.serviceWorker.controller.postMessage({ type: "keep", urls: urls });
    }, 300);
  }
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("controllerchange", keepPage);
  }
  document.addEventListener("htmx:afterSettle", function () {
    if (pageToken() && revisionShown() !== keptRevision && navigator.onLine !== false) keepPage();
  });

  /* ---------------------------------------------------------------- start a game */
  /* Start is sent from the page: a game started opens its table; the form with its messages
   * comes back in place; too many requests from the address (a venue shares one) or no
   * connection say so, and when to try again, and keep every name and option typed. */
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.matches || !form.matches("form[data-new-game]") || !window.fetch || !window.DOMParser) return;
    event.preventDefault();
    const button = form.querySelector("button.start");
    if (button) button.disabled = true;
    const done = function () { if (button) button.disabled = false; };
    const body = new FormData(form);
    if (event.submitter && event.submitter.name) body.append(event.submitter.name, event.submitter.value);
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin" }).then(function (response) {
      if (response.status === 429) {
        done();
        pageNotice(TOO_MANY + retryAfterText(response.headers.get("Retry-After")) + ".");
        return null;
      }
      if (response.redirected && response.ok) {
        window.location.assign(response.url);
        return null;
      }
      return response.text().then(function (html) {
        done();
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("setup");
        const setup = document.getElementById("setup");
        if (!response.ok || !fresh || !setup) {
          pageNotice("Not started: the server had a problem (error " + response.status + "). What you typed is kept: tap Start again.");
          return;
        }
        pageNotice("");
        setup.replaceWith(fresh);
        if (window.htmx) window.htmx.process(fresh);
        const problem = fresh.querySelector("[role=alert], .has-error");
        if (problem) problem.scrollIntoView({ block: "center" });
      });
    }).catch(function () {
      done();
      pageNotice("Not started: no connection. What you typed is kept: tap Start again when the connection is back.");
    });
  });

  /* Back to the start page: the browser keeps the game chosen but not the setup below it. */
  window.addEventListener("pageshow", function () {
    /* filled from a recent game: Start in reach, the names above it */
    const start = document.querySelector("form[data-new-game] button.start");
    if (start && window.location.hash === "#ready") start.scrollIntoView({ block: "end" });
    const form = document.querySelector("form[data-new-game]");
    if (!form || form.querySelector("[name=players]")) return;
    const chosen = form.querySelector("input[name=game]:checked");
    if (chosen) chosen.dispatchEvent(new Event("change", { bubbles: true }));
  });

  function opened() {
    restoreKept();
    showOutbox();
    /* Opened with a round waiting: the scoreboard and the outbox in sight, not the place
     * the browser scrolled back to. */
    if (waiting().length) {
      if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";
      const top = function () { window.scrollTo(0, 0); };
      top();
      window.addEventListener("load", function () { window.setTimeout(top, 0); }, { once: true });
    }
    if (navigator.onLine === false) setOffline(true);
    else keepPage();
    flush();
  }
  if (window.htmx) {
    window.htmx.config.timeout = 15000;
    window.htmx.onLoad(function (content) { init(content); keepAwake(); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { init(document); keepAwake(); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", opened);
  else opened();
})();
