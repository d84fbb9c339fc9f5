"""The table sizes an event allows, on a phone: chosen on the new-event form, refused
beside the field, and changed from the desk."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def signed_in(live_server, browser, path: str) -> Page:
    page: Page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/admin/login/?next={path}")
    page.fill("#id_username", "director")
    page.fill("#id_password", "pw")
    page.click("input[type=submit], button[type=submit]")
    return page


def fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"


def test_four_or_five_only_on_the_new_event_form(live_server, browser, screenshot):
    get_user_model().objects.create_user("director", password="pw", is_staff=True)
    page = signed_in(live_server, browser, "/desk/new/?game=roolz")
    sizes = page.locator("fieldset.table-sizes")
    expect(sizes).to_contain_text("Players at a table")
    for size in ("2", "3", "6"):
        sizes.get_by_text(size, exact=True).click()  # untick: 4 or 5 only
    page.fill("#name", "Friday Roolz")
    screenshot(page, "event-new-table-sizes-phone")
    fits(page)
    for size in ("4", "5"):
        sizes.get_by_text(size, exact=True).click()  # none ticked
    page.get_by_role("button", name="Create the event").click()
    expect(page.locator("fieldset.table-sizes .error")).to_have_text(
        "Tick at least one table size."
    )
    screenshot(page, "event-new-table-sizes-refused-phone")
    fits(page)
    sizes = page.locator("fieldset.table-sizes")
    for size in ("4", "5"):
        sizes.get_by_text(size, exact=True).click()
    page.get_by_role("button", name="Create the event").click()
    expect(page.get_by_role("heading", name="Friday Roolz")).to_be_visible()
    assert Event.objects.get(name="Friday Roolz").table_sizes == [4, 5]


def test_the_desk_changes_the_sizes(live_server, browser, screenshot):
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event = services.event_create(
        owner=director, name="Club night", game="roolz", options=ROOLZ_OPTIONS
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:02d}" for n in range(1, 15)), user=director
    )
    page = signed_in(live_server, browser, f"/desk/{event.pk}/")
    form = page.locator("form.table-sizes")
    for size in ("2", "3", "6"):
        form.get_by_text(size, exact=True).click()
    form.get_by_role("button", name="Save sizes").click()
    expect(page.locator("form.table-sizes input[value='3']")).not_to_be_checked()
    screenshot(page, "desk-table-sizes-phone")
    fits(page)
    event.refresh_from_db()
    assert event.table_sizes == [4, 5]
