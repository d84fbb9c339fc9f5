"""Pass cards read back as a person and a phone would: every name in the text, every code
decoding to its player's own link, ten to a page on A4 and US Letter, and the sheet the
director's alone."""

from __future__ import annotations

import itertools
import re
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from hypothesis import given
from hypothesis import settings as examples
from hypothesis import strategies as st
from PIL import Image

from printing.models import PrintJob
from printing.render import fit_problems, render
from printing.render.passes import PassSheet
from tournaments.club import services as club
from tournaments.events import services
from tournaments.models import Event
from tournaments.printouts import passes as pass_cards
from tournaments.web.desk import links as desk_links

SITE = "https://scores.example.org"
NAMES = [
    "Ann", "Benedikt Oberhollenzer-Wittgenstein", "Cat", "Dan", "Eve", "Fay", "Gus",
    "Hal", "Ivy", "Jo", "Kim", "Zoë Ångström",
]  # fmt: skip


def page_count(pdf: bytes) -> int:
    info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True).stdout
    return int(re.search(rb"Pages:\s+(\d+)", info).group(1))


def pdf_text(pdf: bytes) -> str:
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True)
    return re.sub(r"\s+", "", text.stdout.decode())


DPI = 200


def cards_read(pdf: bytes, paper: str, folder: Path) -> list[tuple[str, list[str]]]:
    """Each card as it was cut out: its text (pdftotext of the card's box) and the codes
    zbarimg reads in the card's box of the page drawn at 200 dpi."""
    plan = PassSheet(title="", cards=()).layout(paper)  # the grid's geometry
    scale = DPI / 72
    read: list[tuple[str, list[str]]] = []
    for page in range(1, page_count(pdf) + 1):
        stem = folder / f"page{page}"
        pages = ["-f", str(page), "-l", str(page)]
        subprocess.run(
            ["pdftoppm", "-png", "-r", str(DPI), *pages, "-singlefile", "-", stem],
            input=pdf,
            check=True,
        )
        image = Image.open(f"{stem}.png")
        for slot in range(plan.per_page):
            box = plan.card_box(slot)
            top = plan.page_height - box.top
            crop = ["-x", str(int(box.x)), "-y", str(int(top))]
            crop += ["-W", str(int(box.width)), "-H", str(int(box.height))]
            text = subprocess.run(
                ["pdftotext", "-f", str(page), "-l", str(page), *crop, "-", "-"],
                input=pdf,
                capture_output=True,
                check=True,
            ).stdout.decode()
            if not text.strip():
                continue
            cell = folder / f"page{page}-card{slot}.png"
            image.crop(
                (box.x * scale, top * scale, box.right * scale, (top + box.height) * scale)
            ).save(cell)
            found = subprocess.run(
                ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(cell)],
                capture_output=True,
                check=False,
            )
            read.append((re.sub(r"\s+", "", text), found.stdout.decode().split()))
    return read


def codes_by_name(
    pdf: bytes, paper: str, folder: Path, names: dict[str, str], title: str
) -> dict[str, str]:
    """{name: the code on that name's card}: every card holds the title, then one name,
    and one code."""
    found: dict[str, str] = {}
    for text, codes in cards_read(pdf, paper, folder):
        heads = [re.sub(r"\s+", "", title + name + "Your") for name in names]
        on_card = [name for name, head in zip(names, heads, strict=True) if text.startswith(head)]
        assert len(on_card) == 1 and len(codes) == 1, (text, codes)
        name = on_card[0]
        assert names[name].removeprefix("https://") in text  # the link written out
        found[name] = codes[0]
    return found


def cards_for(count: int) -> PassSheet:
    return PassSheet(
        title="Friday Roolz at the Crown",
        cards=tuple(
            pass_cards.pass_card(
                name=NAMES[n % len(NAMES)], token=f"tok{n:03d}-AbCdEfGhIjKlMnOpQr", site=SITE
            )
            for n in range(count)
        ),
    )


@pytest.mark.parametrize("paper", ["A4", "LETTER"])
def test_ten_cards_to_a_page_and_everything_fits(paper):
    sheet = cards_for(23)
    assert fit_problems(sheet, paper) == []
    assert page_count(render([sheet], paper)) == 3
    assert page_count(render([cards_for(10)], paper)) == 1
    assert page_count(render([cards_for(0)], paper)) == 1  # says there is nobody


def test_the_link_is_written_in_two_lines_to_type():
    card = pass_cards.pass_card(name="Ann", token="AbCdEfGhIjKlMnOpQrStUv", site=SITE)
    assert card.link == f"{SITE}/me/AbCdEfGhIjKlMnOpQrStUv/"
    assert (card.address, card.token) == ("scores.example.org/me/", "AbCdEfGhIjKlMnOpQrStUv/")


def test_a_link_too_long_for_a_card_is_a_problem():
    long_site = "https://" + "very-long-club-name." * 8 + "example.org"
    sheet = PassSheet(
        title="Night",
        cards=(pass_cards.pass_card(name="Ann", token="AbCdEfGhIjKlMnOpQrStUv", site=long_site),),
    )
    assert fit_problems(sheet, "A4")


@pytest.fixture
def director(db):
    return get_user_model().objects.create_user("director", password="pw", is_staff=True)


@pytest.fixture
def event(director, settings) -> Event:
    settings.TABLESCORE_BASE_URL = SITE
    event = services.event_create(owner=director, name="Friday Roolz at the Crown", game="roolz")
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    return event


def test_the_desks_pass_sheet_names_everyone_and_each_code_opens_their_link(
    client, event, director, tmp_path
):
    dropped = event.entrants.get(name="Jo")
    services.entrant_drop(event=event, entrant=dropped, user=director)
    client.force_login(director)
    answer = client.post(reverse("tournaments:passes_print", args=[event.pk]), {"paper": "A4"})
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/pdf"
    assert "no-store" in answer["Cache-Control"]
    pdf = answer.content
    assert page_count(pdf) == 2  # eleven cards
    text = pdf_text(pdf)
    for entrant in event.entrants.filter(dropped=False):
        assert re.sub(r"\s+", "", entrant.name) in text
        assert f"{entrant.private_token}/" in text  # each card's link is read on its own below
    assert dropped.private_token not in text
    links = {e.name: f"{SITE}/me/{e.private_token}/" for e in event.entrants.filter(dropped=False)}
    assert codes_by_name(pdf, "A4", tmp_path, links, event.name) == links


def test_a_big_events_passes_go_to_a_print_job(
    client,
    event,
    director,
    monkeypatch,
    eager_celery,
    django_capture_on_commit_callbacks,
    tmp_path,
):
    monkeypatch.setattr(desk_links, "PASSES_AT_ONCE", 5)
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            reverse("tournaments:passes_print", args=[event.pk]), {"paper": "letter"}
        )
    job = PrintJob.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == reverse("printing:print_job", args=[job.token])
    assert job.status == PrintJob.Status.DONE, job.error
    assert job.about == "Pass cards of Friday Roolz at the Crown, US Letter"
    pdf = bytes(job.pdf)
    links = {e.name: f"{SITE}/me/{e.private_token}/" for e in event.entrants.all()}
    assert codes_by_name(pdf, "LETTER", tmp_path, links, event.name) == links
    # A link reissued since prints afresh: a new job, the new link on it.
    ann = event.entrants.get(name="Ann")
    services.entrant_link_reissue(event=event, entrant=ann, user=director)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("tournaments:passes_print", args=[event.pk]), {"paper": "letter"})
    assert PrintJob.objects.count() == 2


def test_the_clubs_pass_sheet_carries_each_roster_players_link(client, event, director, tmp_path):
    club.club_night_set(event=event, rated=False, user=director)
    roster = club.roster_for(owner=director)
    client.force_login(director)
    answer = client.post(reverse("club:roster_passes"), {"paper": "A4"})
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    text = pdf_text(answer.content)
    assert "Ann" in text and re.sub(r"\s+", "", roster.name) in text
    links = {p.name: f"{SITE}/me/{p.private_token}/" for p in roster.players.all()}
    assert codes_by_name(answer.content, "A4", tmp_path, links, roster.name) == links


def test_passes_need_the_sites_address(client, event, director, settings):
    settings.TABLESCORE_BASE_URL = ""
    client.force_login(director)
    # The request's own address serves when none is configured.
    answer = client.post(reverse("tournaments:passes_print", args=[event.pk]))
    assert answer.status_code == 200
    assert (
        b"testserver/me/"
        in subprocess.run(
            ["pdftotext", "-", "-"], input=answer.content, capture_output=True, check=True
        ).stdout
    )


@examples(max_examples=25, deadline=None)
@given(count=st.integers(min_value=0, max_value=35), paper=st.sampled_from(["A4", "LETTER"]))
def test_every_card_has_a_place_and_the_pages_are_as_few_as_can_be(count, paper):
    laid = cards_for(count).layout(paper)
    assert laid.page_count == max(1, -(-count // 10))
    boxes = [laid.card_box(slot) for slot in range(laid.per_page)]
    for box in boxes:  # inside the printable frame
        assert box.x >= laid.frame.x - 0.01 and box.right <= laid.frame.right + 0.01
        assert box.y >= laid.frame.y - 0.01 and box.top <= laid.frame.top + 0.01
    for first, second in itertools.combinations(boxes, 2):  # never overlapping
        apart = (
            first.right <= second.x + 0.01
            or second.right <= first.x + 0.01
            or first.top <= second.y + 0.01
            or second.top <= first.y + 0.01
        )
        assert apart
