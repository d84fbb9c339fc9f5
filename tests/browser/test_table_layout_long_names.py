"""Long names at the table, six and eight of them, upright (390x844) and sideways (844x390):
no word of a name broken across lines or cut without the whole name to read, one type size
for the names of a view (the scoreboard, a row of boxes, the Sluff rows, the pay grid);
keys and cells a thumb can hit (44 x 44 at least); every round's table showing whole names
and saying when it scrolls; the correction page's pad leaving its rows in view. Each page
is shot light and dark."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.services import game_create
from tests.browser.test_entry_taps import SIDEWAYS, UPRIGHT
from tests.games import LONG_NAME, LONG_NAME_2, samples

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAMES = [
    "Maximiliana Fetherstonhaugh",
    "Bartholomew Pemberton",
    LONG_NAME,
    "Wilhelmina Ashworth-Kingsley",
    "Constantine Fairweather",
    "Evangeline Montgomery",
    "Christopher Worthington",
    LONG_NAME_2,
]
TABLES = [
    ("roolz", 5),
    ("roolz", 6),
    ("rook_sluff", 6),
    ("rook_sluff", 8),
    ("rummoli", 6),
    ("rummoli", 8),
]
HELD = pytest.mark.parametrize("held", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
THUMB = 44

# The names a table page shows, and the views whose names share one type size.
NAMES = (
    "[data-fit-words], #live .group-title, #live .person, .side-members, .sluff-name .name,"
    " .pay-grid tbody th, .pick-grid thead th"
)
VIEWS = "[data-fit-view], .scoreboard, .per-grid, .pay-grid, .won-grid, .sluff, fieldset, .card"

NAMES_AS_SHOWN = """([names, views]) => Array.from(document.querySelectorAll(names))
  .filter(el => el.offsetParent && el.firstChild && el.firstChild.nodeType === 3
                && el.firstChild.data.trim())
  .map(el => {
    let column = el;
    while (column && getComputedStyle(column).display === 'inline') column = column.parentElement;
    const right = column.getBoundingClientRect().right + 0.5;
    const text = el.firstChild;
    const broken = [];
    for (const m of text.data.matchAll(/[^\\s-]+-?/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const rects = Array.from(range.getClientRects());
      const lines = new Set(rects.map(r => Math.round(r.top)));
      const past = rects.length && rects[rects.length - 1].right > right;
      if (lines.size > 1 || past) broken.push(m[0]);
    }
    const view = el.parentElement.closest(views);
    return {
      name: text.data.trim(), broken, cut: el.hasAttribute('data-fit-cut'),
      title: el.title || '', size: getComputedStyle(el).fontSize,
      view: view ? Array.from(document.querySelectorAll(views)).indexOf(view) : -1,
      kind: el.className + '|' + el.tagName + (el.closest('thead') ? '|head' : ''),
    };
  })"""


def names_whole(page: Page) -> None:
    """No name has a word broken or pushed past its column unless it is cut with an ellipsis
    and the whole name is its title; the names of a view share one type size (per kind of
    name: a team's title over its members)."""
    shown = page.evaluate(NAMES_AS_SHOWN, [NAMES, VIEWS])
    assert shown, "no name shown"
    for name in shown:
        if name["broken"]:
            assert name["cut"] and name["title"] == name["name"], name
    sizes: dict[tuple[int, str], set[str]] = {}
    for name in shown:
        sizes.setdefault((name["view"], name["kind"]), set()).add(name["size"])
    assert all(len(found) == 1 for found in sizes.values()), sizes


def big_enough(page: Page, selector: str) -> None:
    """Every key or cell of ``selector`` shown is at least 44 x 44."""
    boxes = page.locator(selector).evaluate_all(
        "els => els.filter(e => e.offsetParent).map(e => { const r = e.getBoundingClientRect();"
        " return [e.textContent.trim(), r.width, r.height]; })"
    )
    small = [box for box in boxes if box[1] < THUMB - 0.5 or box[2] < THUMB - 0.5]
    assert small == [], small


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def shoot_both(page: Page, screenshot, name: str) -> None:
    """The view as it is, light and dark."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.evaluate("() => window.tablescore && window.tablescore.fitNames(document)")
        screenshot(page, f"{name}-{scheme}", full_page=False)
    page.emulate_media(color_scheme="light")


def long_named(kind: str, count: int):
    record = samples(kind).sample_record(rounds=1, seed=1, players=count)
    record["players"] = LONG_NAMES[:count]
    record.pop("end", None)
    if kind == "rook_sluff":
        record["options"]["deals"] = 6  # still played: the next deal's form is open
    return game_create(record=record).game


@HELD
@pytest.mark.parametrize("kind,count", TABLES, ids=[f"{k}-{n}" for k, n in TABLES])
def test_long_names_whole_and_keys_big_enough_on_the_table_page(
    live_server, page: Page, held, kind, count, screenshot
):
    page.set_viewport_size(held)
    game = long_named(kind, count)
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    expect(page.locator("#entry form[data-entry]")).to_be_visible()
    fits(page)
    names_whole(page)
    big_enough(page, ".pad-keys button, .pad-grid button")
    if kind == "rummoli":
        big_enough(page, "[data-pay-grid] .pay-cell span")
    tag = f"layout-{kind}{count}-{held['width']}"
    page.locator("#live .scoreboard").scroll_into_view_if_needed()
    shoot_both(page, screenshot, f"{tag}-scoreboard")
    page.locator("#entry form[data-entry]").scroll_into_view_if_needed()
    shoot_both(page, screenshot, f"{tag}-form")


@HELD
@pytest.mark.parametrize(
    "kind,count", [("rook_sluff", 8), ("rummoli", 8)], ids=["sluff-8", "rummoli-8"]
)
def test_the_correction_page_keeps_its_rows_in_view(
    live_server, page: Page, held, kind, count, screenshot
):
    """With every box filled, the pad waits under its boxes: it covers none of the rows."""
    page.set_viewport_size(held)
    game = long_named(kind, count)
    page.goto(f"{live_server.url}/t/{game.table_token}/rounds/1/correct/")
    expect(page.locator("#correct-form form")).to_be_visible()
    fits(page)
    names_whole(page)
    boxes = page.locator("#correct-form [data-pad-cell]")
    boxes.first.scroll_into_view_if_needed()
    covered = page.evaluate(
        """() => {
          const pads = Array.from(document.querySelectorAll('[data-pad] > .pad'))
            .filter(p => p.offsetParent).map(p => p.getBoundingClientRect());
          const bar = document.querySelector('.actions').getBoundingClientRect();
          const cells = Array.from(document.querySelectorAll('#correct-form [data-pad-cell]'))
            .filter(c => c.offsetParent).map(c => c.getBoundingClientRect())
            .filter(r => r.bottom > 0 && r.top < window.innerHeight);
          const under = r => pads.some(p => p.left < r.right && r.left < p.right
                                           && p.top < r.bottom && r.top < p.bottom)
                             || (bar.left < r.right && r.left < bar.right && bar.top < r.bottom);
          return {seen: cells.length, clear: cells.filter(r => !under(r)).length};
        }"""
    )
    assert covered["clear"] >= 2, covered
    shoot_both(page, screenshot, f"layout-correct-{kind}{count}-{held['width']}")


@HELD
def test_every_round_shows_whole_names_and_says_it_scrolls(
    live_server, page: Page, held, screenshot
):
    page.set_viewport_size(held)
    game = long_named("rummoli", 8)
    page.goto(f"{live_server.url}/t/{game.table_token}/history/")
    heads = page.locator("table.history thead .history-name")
    expect(heads).to_have_count(8)
    assert [" ".join(text.split()) for text in heads.all_inner_texts()] == LONG_NAMES[:8]
    assert page.evaluate(NAMES_AS_SHOWN, ["table.history .history-name", "table"]) != []
    broken = [
        n
        for n in page.evaluate(NAMES_AS_SHOWN, ["table.history .history-name", "table"])
        if n["broken"]
    ]
    assert broken == [], broken
    scroller = page.locator(".history-scroll").first
    scrolls = scroller.evaluate("el => el.scrollWidth > el.clientWidth + 1")
    if scrolls:
        expect(scroller.locator(".scroll-hint")).to_be_visible()
    fits(page)
    shoot_both(page, screenshot, f"layout-history-rummoli8-{held['width']}")

    page.goto(f"{live_server.url}/v/{game.view_token}/")
    expect(page.locator("#live .scoreboard")).to_be_visible()
    fits(page)
    for name in page.evaluate(NAMES_AS_SHOWN, ["#live .group-title", VIEWS]):
        assert not name["broken"] or name["title"] == name["name"], name
    if page.locator(".history-scroll").evaluate("el => el.scrollWidth > el.clientWidth + 1"):
        expect(page.locator(".history-scroll .scroll-hint")).to_be_visible()
    shoot_both(page, screenshot, f"layout-view-rummoli8-{held['width']}")
