"""Real Chromium (Debian's) through pytest-playwright, at phone size."""

from __future__ import annotations

import os
import re
import shutil
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # sync Playwright beside live_server

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def chromium_path() -> str | None:
    for candidate in (
        os.environ.get("CHROMIUM_PATH"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    path = chromium_path()
    if path is None:
        pytest.fail("Chromium is missing: `make test` installs it (apt-get install chromium)")
    return {**browser_type_launch_args, "executable_path": path, "args": CHROMIUM_FLAGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {
        **browser_context_args,
        "viewport": PHONE,
        "device_scale_factor": 2,
        "has_touch": True,
        "is_mobile": True,
    }


@pytest.fixture
def screenshot():
    """Save a full-page screenshot under test-artifacts/screenshots/NAME.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str, full_page: bool = True) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take


POLICY_REFUSED = re.compile(r"Content.Security.Policy|Permissions.Policy|Refused to")


@pytest.fixture(autouse=True)
def no_script_errors(request):
    """Every page a browser test opens runs its scripts without an error and without a
    refusal of the site's Content-Security-Policy or Permissions-Policy (as Chromium logs
    them); and no page is still asking the live server for something when the test's
    database is emptied."""
    # (pytest-django sets the test's database up before any fixture of this suite, so it
    # is emptied after this one has closed the pages below)
    errors: list[str] = []
    if "page" in request.fixturenames:
        page = request.getfixturevalue("page")
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "console",
            lambda message: (
                errors.append(message.text) if POLICY_REFUSED.search(message.text) else None
            ),
        )
    yield
    if "live_server" in request.fixturenames and {"page", "browser"} & set(request.fixturenames):
        # A page left open polls its table, and a saving countdown may still fire: close
        # them all, then let the requests they began finish before the database is emptied.
        for context in request.getfixturevalue("browser").contexts:
            context.close()
        requests_finished()
    assert errors == []


def requests_finished(timeout: float = 10.0) -> None:
    """Wait until the live server answers no request (each is a thread of its own)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(
        "process_request_thread" in thread.name for thread in threading.enumerate()
    ):
        time.sleep(0.01)


def lose_the_first_save_answer(page) -> list[str]:
    """The first save reaches the server, which stores it, but its answer is lost on the
    way back; later requests go through. Returns the bodies whose answers were lost."""
    lost: list[str] = []

    def lose_the_answer(route) -> None:
        body = route.request.post_data or ""
        if route.request.method == "POST" and "action=preview" not in body and not lost:
            route.fetch()  # the server saves the round ...
            lost.append(body)
            route.abort("internetdisconnected")  # ... and the answer is lost on the way back
            return
        route.continue_()

    page.route("**/entry/", lose_the_answer)
    return lost


WINDOW_TIMEOUT = 15_000  # ms: two cores shared by many browsers: generous, never a sleep
# Every expectation waits as long: under a loaded machine 25 quick ticks were still being
# acknowledged after the default 5 s; a condition that never holds still fails.
expect.set_options(timeout=WINDOW_TIMEOUT)


@pytest.fixture
def own_window(browser):
    """Opens windows of their own, one viewport each (``own_window({"width": ...})``), and
    fails the test on any script error in them."""
    contexts = []
    errors: list[str] = []

    def open_window(viewport: dict[str, int]):
        context = browser.new_context(viewport=viewport)
        context.set_default_timeout(WINDOW_TIMEOUT)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield open_window
    for context in contexts:
        context.close()
    assert errors == []


def shoot_whole(page, name: str) -> None:
    """The whole page as it scrolls, saved under test-artifacts/screenshots/<name>.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
