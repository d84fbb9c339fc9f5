/* Tablescore at the table: what the table's scripts share. No build step.
 *
 * The table's scripts are classic scripts, each one file under static/js/table/, loaded in
 * order (templates/scoring/table_scripts.html) before static/js/table.js, which starts them;
 * each adds what the others use to window.tablescore. A game's own script
 * (static/js/games/<game>.js) uses two of them: register() and num().
 *
 * - a game's own script registers what its form does: sync(form, changed) after every
 *   input, change(form, event) for a change it answers, and complete(form), whether the
 *   round is whole as far as the page can tell (a round saved by itself waits for it)
 * - a form the user has typed or tapped in is marked, and never replaced by a refresh
 */
/* Django's catalogue of the reader's language (/jsi18n/<language>.js, loaded before these
 * scripts) gives gettext(), ngettext() and interpolate(); a page without it says English. */
if (!window.gettext) {
  window.gettext = function (text) { return text; };
  window.ngettext = function (one, many, count) { return count === 1 ? one : many; };
  window.interpolate = function (text, values, named) {
    if (!named) return text;
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };
}
(function () {
  "use strict";

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
  function words(el) { return el ? el.textContent.replace(/\s+/g, " ").trim() : ""; }

  const games = [];
  function sync(form, changed) {
    games.forEach(function (game) { if (game.sync) game.sync(form, changed); });
  }
  function change(form, event) {
    games.forEach(function (game) { if (game.change) game.change(form, event); });
  }
  function complete(form) {
    return form.checkValidity() && games.every(function (game) { return !game.complete || game.complete(form); });
  }

  /* What the page shows now: the scoreboard's revision and the round clock's key it was drawn
   * with (a director's pause or extension changes it, and the poll then brings the
   * scoreboard again with the new clock), and the table it belongs to. */
  function revisionShown() {
    const live = document.getElementById("live");
    return live ? Number(live.dataset.revision) : -1;
  }
  function clockShown() {
    const live = document.getElementById("live");
    return live ? live.dataset.shownClock || "" : "";
  }
  function tablePage() { return document.querySelector(".table-page[data-token]"); }
  function pageToken() { const page = tablePage(); return page ? page.dataset.token : null; }

  window.tablescore = {
    register: function (game) { games.push(game); },
    num: num,
    fire: fire,
    touch: touch,
    touched: touched,
    clamp: clamp,
    words: words,
    sync: sync,
    change: change,
    complete: complete,
    revisionShown: revisionShown,
    clockShown: clockShown,
    tablePage: tablePage,
    pageToken: pageToken,
  };
})();
