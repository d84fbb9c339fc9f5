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

  const SENT_BY_ITSELF = gettext("It is kept on this phone and sent by itself when the connection is back.");
  /* "in 40 seconds", "in 3 minutes", "at 21:05", from an answer's Retry-After */
  function retryAfter(xhr) {
    return retryAfterText(xhr && xhr.getResponseHeader ? xhr.getResponseHeader("Retry-After") : null);
  }
  function retryAfterText(header) {
    if (!header) return gettext("in a little while");
    let seconds = Number(header);
    if (Number.isNaN(seconds)) seconds = Math.max(0, (Date.parse(header) - Date.now()) / 1000);
    if (Number.isNaN(seconds)) return gettext("in a little while");
    if (seconds < 90) {
      const count = Math.max(1, Math.ceil(seconds));
      return interpolate(ngettext("in %(count)s second", "in %(count)s seconds", count), { count: count }, true);
    }
    if (seconds < 3600) {
      const count = Math.ceil(seconds / 60);
      return interpolate(ngettext("in %(count)s minute", "in %(count)s minutes", count), { count: count }, true);
    }
    const at = new Date(Date.now() + seconds * 1000);
    return interpolate(gettext("at %(time)s"), { time: at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) }, true);
  }
  function tooMany(when) {
    return interpolate(gettext("Too many requests from this address just now: nothing was changed and what you typed is kept. Try again %(when)s."), { when: when }, true);
  }
  function busy(event) {
    const xhr = event.detail.xhr;
    return xhr && xhr.status === 429;
  }
  function reason(event, kind) {
    if (kind === "timeout") return gettext("the connection timed out");
    if (kind === "response") {
      const status = event.detail.xhr ? event.detail.xhr.status : 0;
      return status
        ? interpolate(gettext("the server had a problem (error %(status)s)"), { status: status }, true)
        : gettext("the server had a problem");
    }
    return gettext("no connection");
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
        elt.firstChild.textContent = interpolate(gettext("No preview for now: too many requests. Try again %(when)s."), { when: when }, true);
        return;
      }
      const form = elt.closest("form[data-entry]");
      const banner = form && form.querySelector("[data-send-error]");
      if (banner && elt.matches("form[data-entry], form[data-entry] .misdeal")) {
        banner.textContent = interpolate(gettext("Not saved yet: too many requests from this address just now. It is kept on this phone and sent again by itself; or tap Save again %(when)s."), { when: when }, true);
        banner.hidden = false;
        return;
      }
      pageNotice(tooMany(when));
      return;
    }
    const why = reason(event, kind);
    if (elt.id === "preview") {
      elt.innerHTML = '<p class="small muted"></p>';
      elt.firstChild.textContent = interpolate(gettext("No preview: %(why)s."), { why: why }, true);
      return;
    }
    const saving = elt.matches("form[data-entry], form[data-entry] .misdeal");
    const banner = saving && elt.closest("form[data-entry]").querySelector("[data-send-error]");
    if (banner) {
      banner.textContent = interpolate(gettext("Not saved yet: %(why)s."), { why: why }, true) + " " + SENT_BY_ITSELF;
      banner.hidden = false;
      return;
    }
    pageNotice(interpolate(gettext("Not done: %(why)s. Tap again."), { why: why }, true));
  }
  document.addEventListener("htmx:sendError", function (event) { failed(event, "send"); });
  document.addEventListener("htmx:timeout", function (event) { failed(event, "timeout"); });
  document.addEventListener("htmx:responseError", function (event) { failed(event, "response"); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful) return;
    setOffline(false);
    pageNotice("");
  });

  T.tooMany = tooMany;
  T.retryAfterText = retryAfterText;
  T.setOffline = setOffline;
  T.pageNotice = pageNotice;
})();
