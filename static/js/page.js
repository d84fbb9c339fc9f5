/* What every page does, kept in this file because the pages' Content-Security-Policy runs
 * no script written inside a page (no inline <script>, no on...= attribute, no javascript:
 * link) and htmx evaluates nothing (no js: values, no [filter] on a trigger):
 *
 * - registers the service worker (its address is this script's data-service-worker)
 * - a poll marked data-poll-visible asks nothing while the page is hidden
 * - a poll marked data-poll-shown sends the revision and round clock its page shows
 *   (#live's data-revision and data-shown-clock), so the answer is empty when nothing moved
 * - a form or button with data-confirm asks its question before the form is sent
 * - a link marked data-back goes back a page (its href where there is no page to go back to)
 * - the scripts say their words through gettext(), ngettext(), pgettext() and interpolate(),
 *   which Django's catalogue of the reader's language gives (/jsi18n/<language>.js, which
 *   base.html loads before this script); should it fail to load, they say English
 */
if (!window.gettext) {
  window.gettext = function (text) { return text; };
  window.ngettext = function (one, many, count) { return count === 1 ? one : many; };
  window.pgettext = function (context, text) { return text; };
  window.interpolate = function (text, values, named) {
    if (!named) return text;
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };
}
(function () {
  "use strict";

  const script = document.currentScript;
  const worker = script ? script.dataset.serviceWorker : "";
  if (worker && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(function () {});
  }

  document.addEventListener("htmx:confirm", function (event) {
    const elt = event.detail.elt;
    if (elt && elt.hasAttribute("data-poll-visible") && document.visibilityState !== "visible") {
      event.preventDefault();
    }
  });

  document.addEventListener("htmx:configRequest", function (event) {
    const elt = event.detail.elt;
    if (!elt || !elt.hasAttribute("data-poll-shown")) return;
    const live = document.getElementById("live");
    event.detail.parameters.rev = live ? live.dataset.revision : "-1";
    event.detail.parameters.clock = live ? live.dataset.shownClock || "" : "";
  });

  document.addEventListener("submit", function (event) {
    const asker = event.submitter && event.submitter.dataset.confirm
      ? event.submitter
      : event.target;
    const question = asker && asker.dataset ? asker.dataset.confirm : "";
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  document.addEventListener("click", function (event) {
    const link = event.target.closest ? event.target.closest("a[data-back]") : null;
    if (link && window.history.length > 1) {
      event.preventDefault();
      window.history.back();
    }
  });
})();
