/* Tablescore at the table: small helpers around the htmx forms. No build step.
 *
 * The table's scripts, one concern each under static/js/table/, loaded in this order before
 * this one (templates/scoring/table_scripts.html), sharing window.tablescore:
 *
 * - core.js        what they share; a game's own script (static/js/games/<game>.js)
 *                  registers what its form does
 * - wake_lock.js   the screen kept awake while a game is open (Wake Lock, where the
 *                  browser has it)
 * - steppers.js    steppers and quick picks for numbers; copy and share buttons
 * - forms.js       the round form as it is filled in; a field in focus kept clear of the
 *                  Save bar
 * - connection.js  a save without a connection says so and keeps the entry; an "offline"
 *                  badge while the scoreboard cannot be polled; too many requests
 * - fit_names.js   names in narrow columns keep their words whole
 * - live.js        a form being filled in is not replaced when another phone records a
 *                  round; after a save the scoreboard is in sight
 * - countdown.js   a pad that says data-save-when-full saves the round by itself a few
 *                  seconds after a tap fills its last box (Save counts down beside Wait)
 * - page_copy.js   the service worker keeps the table page (and its last scoreboard) for a
 *                  reload offline
 * - outbox.js      a round whose save got no answer is kept on the phone and sent again by
 *                  itself (and in the background, Background Sync, where the browser allows)
 * - new_game.js    the start page: Start sent from the page; the setup of the game chosen
 *                  comes back
 *
 * This one starts them: on every part htmx loads, and once when the page opens.
 */
(function () {
  "use strict";
  const T = window.tablescore;

  function init(root) {
    T.syncAll(root);
    T.fitNames(root);
    T.countdownBars(root);
    T.showShare(root);
  }

  function opened() {
    T.restoreKept();
    T.showOutbox();
    /* Opened with a round waiting: the scoreboard and the outbox in sight, not the place
     * the browser scrolled back to. */
    if (T.waiting().length) {
      if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";
      const top = function () { window.scrollTo(0, 0); };
      top();
      window.addEventListener("load", function () { window.setTimeout(top, 0); }, { once: true });
    }
    if (navigator.onLine === false) T.setOffline(true);
    else T.keepPage();
    T.flush();
  }

  if (window.htmx) {
    window.htmx.config.timeout = 15000;
    window.htmx.onLoad(function (content) { init(content); T.keepAwake(); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { init(document); T.keepAwake(); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", opened);
  else opened();
})();
