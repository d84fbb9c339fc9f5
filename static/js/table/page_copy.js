/* The service worker's copy of the table page (static/sw.js): the table page asks it to
 * keep a fresh copy of itself, and of its styles and scripts (every script[src], so each of
 * the table's scripts is there for a reload offline), when it opens and whenever its
 * scoreboard changes. */
(function () {
  "use strict";
  const T = window.tablescore;

  let keptRevision = null;
  let keepTimer = null;
  function keepPage() {
    if (!T.pageToken() || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    window.clearTimeout(keepTimer);
    keepTimer = window.setTimeout(function () {
      keptRevision = T.revisionShown();
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
    if (T.pageToken() && T.revisionShown() !== keptRevision && navigator.onLine !== false) keepPage();
  });

  T.keepPage = keepPage;
})();
