/* The projector: the draw, then the standings, in turn, each in pages that fit the
   screen, so that every table and every row is shown within each cycle. The live part
   inside is swapped by htmx polling; the panel and page shown are kept here and laid
   again on whatever the swap brought. */
(function () {
  "use strict";
  var SECONDS = 12; // one page on screen
  var ITEMS = { draw: ".draw-table, .byes", standings: ".standings-table tbody tr" };

  function panelOf(screen, name) {
    return screen.querySelector('[data-panel="' + name + '"]');
  }

  // Split a panel's items into pages that fit between its top and the screen's bottom.
  // Items side by side (a grid's row) share their top and go on the same page.
  function pagesOf(screen, name) {
    var panel = panelOf(screen, name);
    if (!panel) return [];
    var items = Array.prototype.slice.call(panel.querySelectorAll(ITEMS[name]));
    items.forEach(function (item) { item.hidden = false; });
    if (!items.length) return [[]];
    var room = window.innerHeight - items[0].getBoundingClientRect().top - 16;
    var pages = [[]];
    var pageTop = null;
    var rowTop = null;
    items.forEach(function (item) {
      var box = item.getBoundingClientRect();
      if (rowTop === null || Math.abs(box.top - rowTop) > 2) rowTop = box.top;
      if (pageTop === null) pageTop = rowTop;
      if (box.bottom - pageTop > room && pages[pages.length - 1].length && rowTop !== pageTop) {
        pages.push([]);
        pageTop = rowTop;
      }
      pages[pages.length - 1].push(item);
    });
    return pages;
  }

  function start() {
    var screen = document.querySelector("[data-projector]");
    if (!screen) return;
    var order = ["draw", "standings"];
    var state = { panel: 0, page: 0 };

    function lay() {
      var name = order[state.panel];
      screen.setAttribute("data-show", name);
      var pages = pagesOf(screen, name);
      if (state.page >= pages.length) state.page = 0;
      pages.forEach(function (items, index) {
        items.forEach(function (item) { item.hidden = index !== state.page; });
      });
      var label = panelOf(screen, name) && panelOf(screen, name).querySelector("[data-page-label]");
      if (label) {
        /* one page: the label keeps its room, unseen, so that nothing moves when it shows */
        label.textContent = "page " + (state.page + 1) + " of " + Math.max(pages.length, 1);
        label.classList.toggle("is-idle", pages.length < 2);
      }
      return pages.length;
    }

    function next() {
      var count = lay();
      if (state.page + 1 < count) {
        state.page += 1;
      } else {
        state.page = 0;
        state.panel = (state.panel + 1) % order.length;
      }
      lay();
    }

    lay();
    window.setInterval(next, SECONDS * 1000);
    document.body.addEventListener("htmx:afterSwap", lay);
    window.addEventListener("resize", lay);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
