/* Connection trouble, said in sight and nothing typed lost:
 *
 * - a save without a connection says so and keeps the entry (the outbox sends it again by
 *   itself, the same key: stored once)
 * - too many requests from the address (a venue shares one): nothing was changed, and when
 *   to try again (from the answer's Retry-After)
 * - an "offline" badge ([data-offline]) while the scoreboard cannot be polled
 * - anything else not done says so in a notice at the foot of the page, gone at the next
 *   answer
 */
(function () {
  "use strict";
  const T = window.tablescore;

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

  T.TOO_MANY = TOO_MANY;
  T.retryAfterText = retryAfterText;
  T.setOffline = setOffline;
  T.pageNotice = pageNotice;
})();
