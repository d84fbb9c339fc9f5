"""The desk's players' links on a phone (390x844): every link with its code, compact and
searchable; a pass typed (as a USB scanner types it) checks its player in and the box is
ready for the next one; a pass refused says why; a link reissued after its confirm step."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tournaments.club import services as club
from tournaments.events import services
from tournaments.models import Entrant, Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLOW = 15_000  # two cores shared by many browsers: generous, never a sleep
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Benedikt Oberhollenzer"]


@pytest.fixture
def night(settings) -> Event:
    settings.TABLESCORE_BASE_URL = "https://scores.example.org"
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event = services.event_create(owner=director, name="Club night", game="roolz")
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    return event


def open_links(page: Page, live_server, event: Event) -> None:
    page.set_default_timeout(SLOW)
    page.goto(f"{live_server.url}/admin/login/?next=/desk/{event.pk}/links/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "pw")
    page.click("input[type=submit], button[type=submit]")
    expect(page.get_by_role("heading", name="Players' links")).to_be_visible()


def fits_the_phone(page: Page) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], wide


def test_the_links_page_on_a_phone(live_server, page: Page, night, screenshot):
    open_links(page, live_server, night)
    ann = night.entrants.get(name="Ann")
    row = page.locator(f"#link-{ann.pk}")
    expect(row.get_by_role("img", name="QR code of Ann's link")).to_be_visible()
    expect(
        row.get_by_role("link", name=f"scores.example.org/me/{ann.private_token}/")
    ).to_be_visible()
    box = row.locator(".link-qr").bounding_box()
    assert box is not None and box["width"] <= 100  # compact: many rows to a screen
    fits_the_phone(page)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        screenshot(page, f"desk-links-phone-{scheme}")
    # Searching keeps the list to those found, as on the desk.
    page.fill("#links-q", "ben")
    expect(page.locator(".link-item")).to_have_count(2)
    expect(page.locator("#links")).to_contain_text("2 players match")
    page.fill("#links-q", "")
    expect(page.locator(".link-item")).to_have_count(len(NAMES))


def test_a_pass_typed_checks_its_player_in(live_server, page: Page, night, screenshot):
    open_links(page, live_server, night)
    ann = night.entrants.get(name="Ann")
    box = page.locator("#pass-text")
    box.fill(f"https://scores.example.org/me/{ann.private_token}/")
    box.press("Enter")  # what a USB scanner sends after the link
    result = page.locator("#pass-result")
    expect(result).to_contain_text("Ann is checked in.")
    expect(box).to_have_value("")
    expect(box).to_be_focused()
    expect(page.locator(f"#link-{ann.pk}")).to_contain_text("checked in")
    expect(page.locator("#links-count")).to_have_text(f"{len(NAMES)} in, 1 checked in")
    assert Entrant.objects.get(pk=ann.pk).checked_in
    screenshot(page, "desk-links-pass-checked-in-light", full_page=False)
    # The same pass again: already in, nothing changes.
    box.fill(ann.private_token)
    box.press("Enter")
    expect(result).to_contain_text("Ann was already checked in.")
    # Another event's pass is refused in words, beside the box.
    other = services.event_create(owner=night.owner, name="Another night", game="roolz")
    stranger = services.entrant_add(event=other, name="Zed", user=night.owner)
    box.fill(f"https://scores.example.org/me/{stranger.private_token}/")
    box.press("Enter")
    expect(result.get_by_role("alert")).to_have_text(
        "This pass is for another event, not this one."
    )
    page.emulate_media(color_scheme="dark")
    screenshot(page, "desk-links-pass-refused-dark", full_page=False)
    fits_the_phone(page)
    assert not Entrant.objects.filter(pk=stranger.pk, checked_in=True).exists()


def test_a_link_is_reissued_after_its_confirm_step(live_server, page: Page, night, screenshot):
    open_links(page, live_server, night)
    ben = night.entrants.get(name="Ben")
    row = page.locator(f"#link-{ben.pk}")
    row.get_by_text("New link…").click()
    expect(row).to_contain_text("stop working at once")
    screenshot(page, "desk-links-reissue-confirm-light", full_page=False)
    row.get_by_role("button", name="Revoke and give a new link").click()
    expect(page.locator("#reissued")).to_contain_text("Ben has a new link")
    new = Entrant.objects.get(pk=ben.pk).private_token
    assert new != ben.private_token
    row = page.locator(f"#link-{ben.pk}")
    expect(row.get_by_role("link", name=f"scores.example.org/me/{new}/")).to_be_visible()
    # The old pass is refused at the box.
    box = page.locator("#pass-text")
    box.fill(ben.private_token)
    box.press("Enter")
    expect(page.locator("#pass-result").get_by_role("alert")).to_contain_text("revoked")
    # Ticked players are checked in together.
    for name in ("Cat", "Dan"):
        pk = night.entrants.get(name=name).pk
        page.locator(f"#link-{pk} input[name=entrant]").check()
    page.get_by_role("button", name="Check in these (ticked)").click()
    expect(page.locator("#checked-these")).to_have_text("2 players checked in.")
    checked = set(Entrant.objects.filter(checked_in=True).values_list("name", flat=True))
    assert checked == {"Cat", "Dan"}


def test_the_club_desks_links_on_a_phone(live_server, page: Page, night, screenshot):
    club.club_night_set(event=night, rated=False, user=night.owner)
    open_links(page, live_server, night)
    page.goto(f"{live_server.url}/desk/{night.pk}/")
    expect(page.get_by_role("link", name="Players' links")).to_be_visible()
    fits_the_phone(page)
    screenshot(page, "desk-event-links-button-light", full_page=False)
    page.goto(f"{live_server.url}/desk/club/")
    screenshot(page, "club-desk-links-button-light", full_page=False)
    page.get_by_role("link", name="Players' links").click()
    expect(page.get_by_role("heading", name="Players' links")).to_be_visible()
    ann = club.roster_for(owner=night.owner).players.get(name="Ann")
    row = page.locator(f"#link-{ann.pk}")
    expect(row.get_by_role("img", name="QR code of Ann's link")).to_be_visible()
    expect(
        row.get_by_role("link", name=f"scores.example.org/me/{ann.private_token}/")
    ).to_be_visible()
    fits_the_phone(page)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        screenshot(page, f"club-links-phone-{scheme}", full_page=False)
    page.fill("#links-q", "ann")
    expect(page.locator(".link-item")).to_have_count(1)
    row.get_by_text("New link…").click()
    row.get_by_role("button", name="Revoke and give a new link").click()
    expect(page.locator("#reissued")).to_contain_text("Ann has a new link")
    ann.refresh_from_db()
    expect(page.locator(f"#link-{ann.pk}")).to_contain_text(ann.private_token)


# A camera and a QR reader for a browser that has neither (Chromium on Linux has no
# BarcodeDetector): the camera is a canvas's stream, the reader answers what the test
# holds up in front of it (window.heldUp), as often as it is asked.
CAMERA = """
window.heldUp = "";
window.detections = 0;
window.BarcodeDetector = class {
  constructor(options) { this.formats = options.formats; }
  async detect(source) {
    window.detections += 1;
    return window.heldUp ? [{ rawValue: window.heldUp, format: "qr_code" }] : [];
  }
};
navigator.mediaDevices.getUserMedia = async function () {
  const canvas = document.createElement("canvas");
  canvas.width = 320; canvas.height = 240;
  const context = canvas.getContext("2d");
  context.fillStyle = "#888"; context.fillRect(0, 0, 320, 240);
  return canvas.captureStream(5);
};
"""


def test_a_pass_held_to_the_camera_checks_its_player_in_once(
    live_server, page: Page, night, screenshot
):
    page.add_init_script(CAMERA)
    open_links(page, live_server, night)
    ann = night.entrants.get(name="Ann")
    page.get_by_role("button", name="Scan with the camera").click()
    expect(page.locator("[data-scan-video]")).to_be_visible()
    expect(page.get_by_role("button", name="Stop the camera")).to_be_visible()
    page.evaluate(f"window.heldUp = 'https://scores.example.org/me/{ann.private_token}/'")
    expect(page.locator("#pass-result")).to_contain_text("Ann is checked in.")
    # Held up a while longer, the same pass is not sent again and again.
    seen = page.evaluate("window.detections")
    page.wait_for_function("(n) => window.detections > n", arg=seen + 4)
    expect(page.locator("#pass-result")).to_contain_text("Ann is checked in.")
    lines = night.log.filter(action="entrant_check_in").count()
    assert lines == 1
    screenshot(page, "desk-links-camera-light", full_page=False)
    page.get_by_role("button", name="Stop the camera").click()
    expect(page.locator("[data-scan-video]")).to_be_hidden()
    expect(page.get_by_role("button", name="Scan with the camera")).to_be_visible()
