"""Content-Security-Policy and Permissions-Policy on every kind of answer, and pages that
keep to the policy: no script or style of their own, nothing for htmx to evaluate.

The browser side (every page's scripts running under the policy, with no violation) is
tests/browser/test_security_policy.py.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from common.security_headers import header_value
from printing import sources
from printing.models import PrintJob
from scoring.models import Game
from tests.scoring.factories import new_game, roolz_round
from tournaments.models import Event

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)
HX = {"HTTP_HX_REQUEST": "true"}


def directives(header: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *values = part.split()
        assert name not in parsed, f"{name} twice"
        parsed[name] = values
    return parsed


def features(header: str) -> dict[str, str]:
    return dict(item.strip().split("=", 1) for item in header.split(","))


def assert_both_headers(url: str, response) -> None:
    assert "Content-Security-Policy" in response, f"{url} answers no Content-Security-Policy"
    policy = directives(response["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"], url
    assert policy["script-src"] == ["'self'"], url
    assert policy["style-src"] == ["'self'"], url
    assert policy["img-src"] == ["'self'"], url
    assert policy["connect-src"] == ["'self'"], url
    assert policy["worker-src"] == ["'self'"], url
    assert policy["manifest-src"] == ["'self'"], url
    assert policy["object-src"] == ["'none'"], url
    assert policy["frame-ancestors"] == ["'none'"], url
    assert policy["base-uri"] == ["'self'"], url
    assert policy["form-action"] == ["'self'"], url
    assert not {"'unsafe-inline'", "'unsafe-eval'", "*"} & {
        value for values in policy.values() for value in values
    }, url
    assert "Permissions-Policy" in response, f"{url} answers no Permissions-Policy"
    allowed = features(response["Permissions-Policy"])
    assert allowed["screen-wake-lock"] == "(self)", url
    for unused in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert allowed[unused] == "()", (url, unused)


class OwnCode(HTMLParser):
    """What a page carries that a strict policy would refuse to run or apply."""

    def __init__(self) -> None:
        super().__init__()
        self.refused: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script" and not values.get("src") and values.get("type") != "application/json":
            self.refused.append("an inline <script>")
        if tag == "style":
            self.refused.append("a <style> element")
        for name, value in attrs:
            value = value or ""
            if name == "style":
                self.refused.append(f"a style attribute on <{tag}>")
            elif name.startswith("on") or name.startswith(("hx-on", "data-hx-on")):
                self.refused.append(f"an event handler attribute {name} on <{tag}>")
            elif value.strip().lower().startswith("javascript:"):
                self.refused.append(f"a javascript: URL in {name} of <{tag}>")
            elif name in {"hx-vals", "hx-vars", "hx-headers"} and value.strip().startswith(
                ("js:", "javascript:")
            ):
                self.refused.append(f"{name} for htmx to evaluate on <{tag}>")
            elif name == "hx-trigger" and "[" in value:
                self.refused.append(f"an hx-trigger filter for htmx to evaluate on <{tag}>")


def own_code(html: str) -> list[str]:
    parser = OwnCode()
    parser.feed(html)
    return parser.refused


@pytest.fixture
def site(client):
    """An event of the desk with its round 1 played in part, a casual table, a print job,
    a director (staff and superuser) and the URLs of every kind of page."""
    director = get_user_model().objects.create_user(
        "director", password="cards-at-eight", is_staff=True, is_superuser=True
    )
    call_command("demoevent")
    event = Event.objects.get()
    tournament_round = event.rounds.get(number=1)
    table = tournament_round.tables.select_related("game").first()
    entrant = event.entrants.first()
    game = new_game(
        {
            "format": 1,
            "game": "roolz",
            "players": ["Ann", "Ben", "Cat", "Dan"],
            "rounds": [roolz_round()],
        }
    )
    what = sources.blank_request(game="roolz", players=4, copies=2)
    job = PrintJob.objects.create(request_key="k", what=what)
    token, public = game.table_token, event.public_token
    return {
        "director": director,
        "game": game,
        "pages": {
            "home": ["/", "/games/", "/games/new/"],
            "table": [
                f"/t/{token}/",
                f"/t/{token}/history/",
                f"/t/{token}/rules/",
                f"/v/{game.view_token}/",
                f"/t/{table.game.table_token}/",
            ],
            "print": ["/print/", f"/print/jobs/{job.token}/"],
            "public": [
                f"/e/{public}/",
                f"/e/{public}/standings/",
                f"/e/{public}/projector/",
                f"/e/{public}/players/{entrant.pk}/",
                f"/v/{table.game.view_token}/",
            ],
            "desk": [
                "/desk/",
                "/desk/new/",
                "/desk/import/",
                f"/desk/{event.pk}/",
                f"/desk/{event.pk}/rounds/1/",
                f"/desk/{event.pk}/tables/{table.pk}/",
                f"/desk/{event.pk}/log/",
                "/desk/club/",
            ],
            "admin": ["/admin/", "/admin/scoring/game/", f"/admin/scoring/game/{game.pk}/change/"],
        },
    }


@pytest.mark.parametrize("kind", ["home", "table", "print", "public", "desk", "admin"])
def test_every_kind_of_page_carries_both_policies_and_keeps_to_them(client, site, kind):
    if kind in {"desk", "admin"}:
        client.force_login(site["director"])
    for url in site["pages"][kind]:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        assert "text/html" in response["Content-Type"], url
        assert_both_headers(url, response)
        assert own_code(response.content.decode()) == [], url


def test_the_parts_htmx_swaps_in_keep_to_the_policy_too(client, site):
    game = site["game"]
    for url in (f"/t/{game.table_token}/live/", f"/v/{game.view_token}/live/"):
        response = client.get(url, **HX)
        assert response.status_code == 200, url
        assert_both_headers(url, response)
        assert own_code(response.content.decode()) == [], url


def test_answers_that_are_not_pages_carry_both_policies(client, site):
    game: Game = site["game"]
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {game.table_token}"}
    answers = {
        "/healthz": client.get("/healthz"),
        "/healthz/live": client.get("/healthz/live"),
        "/manifest.webmanifest": client.get("/manifest.webmanifest"),
        "/sw.js": client.get("/sw.js"),
        "/api/openapi.json": client.get("/api/openapi.json"),
        "/api/games/<id>/": client.get(f"/api/games/{game.pk}/", **bearer),
        "/api/ (not found)": client.get("/api/no/such/path/"),
        "/admin/login/": Client().get("/admin/login/"),
        "/no-such-page/ (404)": client.get("/no-such-page/"),
        "/desk/ (to the login)": Client().get("/desk/"),
    }
    assert answers["/api/games/<id>/"].status_code == 200
    assert json.loads(answers["/api/games/<id>/"].content)["id"] == game.pk
    assert answers["/no-such-page/ (404)"].status_code == 404
    assert answers["/desk/ (to the login)"].status_code == 302
    for url, response in answers.items():
        assert response.status_code in (200, 302, 404), (url, response.status_code)
        assert_both_headers(url, response)


def test_a_pdf_is_answered_without_the_page_policy_for_the_browser_s_viewer(client, site):
    """A browser draws a PDF in a page of its own making, with inline styles and a plugin
    that the pages' policy would refuse: a PDF carries the Permissions-Policy only."""
    game: Game = site["game"]
    response = client.get(f"/t/{game.table_token}/scoresheet.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "Content-Security-Policy" not in response
    assert features(response["Permissions-Policy"])["camera"] == "()"


def test_a_form_sent_without_its_csrf_token_is_refused_by_a_page_of_the_site(site):
    response = Client(enforce_csrf_checks=True).post("/games/new/", {"game": "roolz"})
    assert response.status_code == 403
    assert_both_headers("/games/new/ (no CSRF token)", response)
    html = response.content.decode()
    assert "Send it again" in html
    assert own_code(html) == []


def test_the_wrong_token_refusal_and_the_login_page_keep_to_the_policy(client, site):
    refused = client.get("/t/no-such-table-token-at-all/")
    assert refused.status_code == 404
    assert_both_headers("/t/<wrong>/", refused)
    login = Client().get("/admin/login/")
    assert own_code(login.content.decode()) == []


# --------------------------------------------------------------------------- the sources

TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
SCRIPTS = sorted((ROOT / "static").rglob("*.js"))


def test_no_template_holds_code_or_styles_of_its_own():
    assert len(TEMPLATES) > 40
    refused = {
        str(path.relative_to(ROOT)): found
        for path in TEMPLATES
        # Template tags inside attributes are left in: the parser sees their text.
        if (found := own_code(path.read_text(encoding="utf-8")))
    }
    assert refused == {}


# What a script may not do under the policy: evaluate a string, or give an element a style
# attribute (an assignment to element.style is allowed, a style="..." in HTML is not).
REFUSED_IN_SCRIPTS = {
    "eval": re.compile(r"\beval\s*\("),
    "new Function": re.compile(r"\bnew\s+Function\s*\("),
    "a string for setTimeout": re.compile(r"\bset(?:Timeout|Interval)\s*\(\s*[\"'`]"),
    "setAttribute('style')": re.compile(r"setAttribute\(\s*[\"']style[\"']"),
    "style= in HTML": re.compile(r"style\s*=\s*\\?[\"']"),
    "an inline handler in HTML": re.compile(r"<[^>]*\son[a-z]+\s*=", re.I),
}


def test_no_script_of_ours_evaluates_strings_or_writes_style_attributes():
    assert any(path.name == "page.js" for path in SCRIPTS)
    found = [
        (str(path.relative_to(ROOT)), what)
        for path in SCRIPTS
        for what, pattern in REFUSED_IN_SCRIPTS.items()
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_permissions_policy_header_is_written_as_the_browsers_read_it():
    assert header_value({"screen-wake-lock": ["self"], "camera": []}) == (
        "screen-wake-lock=(self), camera=()"
    )
    assert header_value({"web-share": ["self", "https://cards.example"]}) == (
        'web-share=(self "https://cards.example")'
    )
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="'camera'"):
        header_value({"camera": "self"})  # type: ignore[dict-item]
