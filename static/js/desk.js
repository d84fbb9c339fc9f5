/* The director's desk, kept in this file for the pages' Content-Security-Policy:
 *
 * - Check-in ticks are never lost in silence. Each tick is sent on its own (one player,
 *   one request, kept alive if the page is left), and its row says what became of it:
 *   "saving…", then "saved" once the server answers with the player as now kept, or
 *   "retrying…" while the server cannot be reached or gives no answer in time (a few
 *   times, waiting longer each time), or the refusal in words, the box put back as kept. A tick made while the
 *   row's last one is on its way is sent once that one is answered. Leaving the page
 *   with ticks still on their way asks first. Once every tick is answered, the players'
 *   box is drawn again (its counts and who round N seats), keeping any tick not yet sent;
 *   a drawing asked for before the last tick was sent is stale and not shown.
 * - A desk request answered 403 or 404 (the event is no longer this user's to direct)
 *   loads the page again, which shows the styled "Not found" or "Not allowed" page,
 *   where htmx alone would swap nothing and leave a page that no longer works.
 */
(function () {
  "use strict";

  var TRIES = 5; // sends of one tick before it is shown as not saved
  var FIRST_WAIT = 500; // ms before the first retry, doubled each time
  var ANSWER_WAIT = 10000; // ms a send waits for its answer before it is tried again
  var sent = 0; // sends so far: a drawing of the box asked for before the last is stale
  var ticks = {}; // url -> {wanted, sending, tries, note, failed}

  function csrf() {
    var headers = document.body.getAttribute("hx-headers");
    try { return JSON.parse(headers)["X-CSRFToken"] || ""; } catch (e) { return ""; }
  }

  function boxOf(url) {
    return document.querySelector('input[data-tick-url="' + url + '"]');
  }

  function show(url) {
    var tick = ticks[url];
    var box = boxOf(url);
    if (!tick || !box) return;
    var row = box.closest("tr");
    var state = row && row.querySelector("[data-tick-state]");
    if (tick.sending || tick.queued) box.checked = tick.wanted;
    if (row) {
      row.setAttribute("data-tick", tick.sending ? "saving" : tick.failed ? "failed" : "saved");
    }
    if (state) {
      state.textContent = tick.note;
      state.classList.toggle("error", Boolean(tick.failed));
      state.setAttribute("role", tick.failed ? "alert" : "status");
    }
    box.setAttribute("aria-invalid", tick.failed ? "true" : "false");
  }

  function pending() {
    return Object.keys(ticks).some(function (url) {
      return ticks[url].sending || ticks[url].queued;
    });
  }

  function send(url) {
    var tick = ticks[url];
    tick.sending = true;
    tick.queued = false;
    tick.failed = false;
    tick.note = tick.tries ? gettext("retrying…") : gettext("saving…");
    show(url);
    var wanted = tick.wanted;
    var body = new FormData();
    body.append("checked_in", wanted ? "on" : "");
    sent += 1;
    // A send left unanswered (a stalled connection) is given up and tried again: the
    // same tick sent twice keeps the player as ticked once.
    var control = window.AbortController ? new window.AbortController() : null;
    var waiting = control ? window.setTimeout(function () { control.abort(); }, ANSWER_WAIT) : null;
    fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      keepalive: true,
      signal: control ? control.signal : undefined,
      headers: { "X-CSRFToken": csrf(), "X-Tick": "1", Accept: "application/json" },
    })
      .then(function (answer) {
        if (answer.status === 403 || answer.status === 404) {
          window.location.reload();
          return null;
        }
        if (answer.status === 409) {
          return answer.json().then(function (data) { refused(url, data.error); return null; });
        }
        if (!answer.ok) throw new Error("status " + answer.status);
        return answer.json();
      })
      .then(function (data) {
        window.clearTimeout(waiting);
        if (data) saved(url, wanted, data);
      })
      .catch(function () {
        window.clearTimeout(waiting);
        tick.tries += 1;
        tick.sending = false;
        if (tick.tries < TRIES) {
          tick.sending = true;
          tick.note = gettext("not saved yet, retrying…");
          show(url);
          window.setTimeout(function () { send(url); }, FIRST_WAIT * Math.pow(2, tick.tries - 1));
        } else {
          tick.failed = true;
          tick.note = gettext("not saved: no answer from the server. Tick again");
          show(url);
        }
      });
  }

  function saved(url, wanted, data) {
    var tick = ticks[url];
    tick.sending = false;
    tick.tries = 0;
    if (tick.wanted !== wanted) { // ticked again meanwhile: send the last tick
      send(url);
      return;
    }
    tick.note = data.checked_in ? gettext("✓ saved") : gettext("saved: not here");
    show(url);
    var count = document.querySelector("[data-checked-count]");
    if (count) {
      count.textContent = data.checked
        ? ", " + interpolate(ngettext("%(count)s checked in", "%(count)s checked in", data.checked), { count: data.checked }, true)
        : "";
    }
    settled();
  }

  function refused(url, words) {
    var tick = ticks[url];
    tick.sending = false;
    tick.failed = true;
    tick.tries = 0;
    tick.note = interpolate(gettext("not saved: %(why)s"), { why: words || gettext("refused") }, true);
    var box = boxOf(url);
    if (box) { box.checked = !tick.wanted; tick.wanted = box.checked; }
    show(url);
  }

  var redraw = null;
  // Once every tick is answered: the players' box drawn again, as the server keeps it.
  function settled() {
    if (redraw) window.clearTimeout(redraw);
    redraw = window.setTimeout(function () {
      redraw = null;
      if (pending()) return;
      var box = document.getElementById("entrants");
      var search = document.getElementById("player-search");
      if (!box || !window.htmx) return;
      var query = search ? new URLSearchParams(new FormData(search)).toString() : "";
      var asked = sent;
      fetch(window.location.pathname + (query ? "?" + query : ""), {
        credentials: "same-origin",
        headers: { "HX-Request": "true" },
      })
        .then(function (answer) { return answer.ok ? answer.text() : null; })
        .then(function (html) {
          if (!html || pending() || sent !== asked) return; // stale: a later one follows
          var drawn = new DOMParser().parseFromString(html, "text/html").getElementById("entrants");
          var now = document.getElementById("entrants");
          if (!drawn || !now) return;
          var notes = {};
          Object.keys(ticks).forEach(function (url) { notes[url] = ticks[url]; });
          now.replaceWith(drawn);
          window.htmx.process(drawn);
          Object.keys(notes).forEach(show);
        })
        .catch(function () { /* the box shown stays */ });
    }, 1500);
  }

  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.matches || !box.matches("input[data-tick-url]")) return;
    var url = box.getAttribute("data-tick-url");
    var tick = ticks[url] || (ticks[url] = { tries: 0, sending: false, queued: false });
    tick.wanted = box.checked;
    if (tick.sending) {
      tick.queued = true;
      tick.note = gettext("saving…");
      show(url);
      return;
    }
    tick.tries = 0;
    send(url);
  });

  // A box drawn again (a player added, a page of players) shows the ticks on their way.
  document.addEventListener("htmx:afterSwap", function () {
    Object.keys(ticks).forEach(show);
  });

  window.addEventListener("beforeunload", function (event) {
    if (!pending()) return;
    event.preventDefault();
    event.returnValue = "";
  });

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status === 403 || status === 404) window.location.reload();
  });
})();
