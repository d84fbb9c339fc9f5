"""An event's printouts, read back from the PDFs as a person (and a phone) would read them."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from printing.errors import PrintRequestError
from printing.models import PrintJob
from printing.registry import SOURCES
from printing.render import fit_problems
from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import selectors, services
from tournaments.models import Event, TableSeat, TournamentRound
from tournaments.printouts import sources as printouts
from tournaments.standings.core.shown import columns_with_values
from tournaments.web.desk.print_pages import printouts_for

pytestmark = pytest.mark.django_db


NAMES = [
    "Ann", "Benedikt Oberhollenzer-Wittgenstein", "Cat", "Dan", "Eve", "Fay", "Gus",
    "Hal", "Ivy", "Jo", "Kim", "Lou", "Max", "Ned", "Óscar", "Pia", "Quy", "Zoë Ångström",
]  # fmt: skip
BASE = "http://scores.example.org"
PAPERS = ("A4", "LETTER")


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


def publish_next(event: Event, director) -> TournamentRound:
    draft = services.tournament_round_generate(event=event, user=director)
    return services.tournament_round_publish(event=event, round=draft, user=director)


@pytest.fixture
def event(director) -> Event:
    """Eighteen players of Roolz, tournament round 1 published: three tables of 4, two of 3."""
    event = services.event_create(
        owner=director, name="Friday Roolz at the Crown", game="roolz", options=ROOLZ_OPTIONS
    )
    for name in NAMES:
        services.entrant_add(event=event, name=name, user=director)
    publish_next(event, director)
    event.refresh_from_db()
    return event


def seated(event: Event, round_number: int) -> dict[int, list[tuple[int, str, str]]]:
    """Each table's (1-based seat, name, table token), straight from the rows."""
    tables: dict[int, list[tuple[int, str, str]]] = {}
    for seat in TableSeat.objects.filter(
        table__round__event=event, table__round__number=round_number
    ).select_related("entrant", "table__game"):
        tables.setdefault(seat.table.number, []).append(
            (seat.seat + 1, seat.entrant.name, seat.table.game.table_token)
        )
    return {number: sorted(seats) for number, seats in tables.items()}


def print_pdf(event: Event, kind: str, django_capture_on_commit_callbacks, paper="A4") -> bytes:
    with django_capture_on_commit_callbacks(execute=True):
        job = printouts.printout_create(event=event, kind=kind, paper=paper, base_url=BASE)
    job = PrintJob.objects.get(pk=job.pk)
    assert job.status == PrintJob.Status.DONE, job.error
    return bytes(job.pdf)


def page_count(pdf: bytes) -> int:
    info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True).stdout
    return int(re.search(rb"Pages:\s+(\d+)", info).group(1))


def page_text(pdf: bytes, page: int | None = None, *, layout: bool = False) -> str:
    args = ["pdftotext"]
    if page is not None:
        args += ["-f", str(page), "-l", str(page)]
    if layout:
        args.append("-layout")
    return subprocess.run(
        [*args, "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()


def squeezed(text: str) -> str:
    """pdftotext may break a condensed name or add spaces: compare without white space."""
    return re.sub(r"\s+", "", text)


def page_codes(pdf: bytes, page: int, folder: Path) -> list[str]:
    stem = folder / f"page{page}"
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "100",
            "-f",
            str(page),
            "-l",
            str(page),
            "-singlefile",
            "-",
            stem,
        ],
        input=pdf,
        check=True,
    )
    found = subprocess.run(
        ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", f"{stem}.png"],
        capture_output=True,
        check=False,
    )
    return found.stdout.decode().split()


# --------------------------------------------------------------------------- table cards


def test_each_table_card_names_its_players_and_its_code_opens_its_table(
    event, eager_celery, django_capture_on_commit_callbacks, tmp_path
):
    pdf = print_pdf(event, printouts.TABLE_CARDS, django_capture_on_commit_callbacks)
    tables = seated(event, 1)
    assert page_count(pdf) == len(tables) == 5
    for number, seats in sorted(tables.items()):
        text = page_text(pdf, number)
        assert f"Table {number}" in text
        for _seat, name, _ in seats:
            assert squeezed(name) in squeezed(text), (number, name)
        others = {n for t, s in tables.items() if t != number for _, n, _ in s}
        # The table's link is random letters: a short name may turn up inside it by chance.
        names_text = squeezed(re.sub(r"https?://\S+", "", text))
        assert not any(squeezed(n) in names_text for n in others - {s[1] for s in seats})
        token = seats[0][2]
        link = f"{BASE}/t/{token}/"
        assert page_codes(pdf, number, tmp_path) == [link]
        assert link in text  # written out too, for a phone without a camera


def test_a_table_card_states_seats_teams_first_dealer_and_options(event):
    draw = selectors.draw_for(event=event)
    what = printouts.printout_request(event=event, kind=printouts.TABLE_CARDS, base_url=BASE)
    cards, count = SOURCES.for_request(what).sheets(what)
    cards = list(cards)
    assert count == len(cards) == len(draw.tables)
    for card, table in zip(cards, draw.tables, strict=True):
        assert card.heading == f"Table {table.number}"
        assert [line.label for line in card.lines] == [str(s.seat) for s in table.seats]
        assert [line.name for line in card.lines] == [s.name for s in table.seats]
        for line, seat in zip(card.lines, table.seats, strict=True):
            assert (f"team {seat.team}" in line.note) == bool(seat.team)
            assert line.marked == (seat.seat == table.first_dealer)
        assert f"{table.first_dealer_name} (seat {table.first_dealer}) deals first" in card.facts
        assert "Target score: 300" in card.notes
        assert card.link == f"{BASE}/t/{table.table_token}/"
    # Roolz at 4 plays in teams A and B, at 3 alone.
    sizes = {len(t.seats): {s.team for s in t.seats} for t in draw.tables}
    assert sizes == {4: {"A", "B"}, 3: {""}}


def test_a_ten_seat_card_fits_with_names_that_can_be_read(director):
    event = services.event_create(owner=director, name="Rook Sluff night", game="rook_sluff")
    for n in range(10):
        services.entrant_add(event=event, name=f"Maximilian-Alexander Player {n}", user=director)
    publish_next(event, director)
    what = printouts.printout_request(event=event, kind=printouts.TABLE_CARDS, base_url=BASE)
    cards = list(SOURCES.for_request(what).sheets(what)[0])
    assert len(cards[0].lines) == 10
    for paper in PAPERS:
        laid = cards[0].layout(paper)
        assert laid.name_size >= 11
        assert fit_problems(cards[0], paper) == []


# --------------------------------------------------------------------------- seating list


def test_the_seating_list_has_every_entrant_in_name_order_with_table_and_seat(
    event, eager_celery, django_capture_on_commit_callbacks
):
    expected = sorted(
        (
            (selectors.folded(name), name, table, seat)
            for table, seats in seated(event, 1).items()
            for seat, name, _ in seats
        )
    )
    draw = selectors.draw_for(event=event)
    listing = printouts.seating_list(draw)
    assert [row[:3] for row in listing.rows] == [
        (name, str(table), str(seat)) for _, name, table, seat in expected
    ]
    assert len(listing.rows) == len(NAMES)
    # On paper: each name on one line with its table and seat.
    text = page_text(
        print_pdf(event, printouts.SEATING_LIST, django_capture_on_commit_callbacks), layout=True
    )
    for _, name, table, seat in expected:
        assert re.search(rf"{re.escape(name)}\s+{table}\s+{seat}\b", text), name
    positions = [text.index(name) for _, name, _, _ in expected]
    assert positions == sorted(positions)  # one column here: a long name needs the width


def test_a_bye_is_listed_on_the_seating_list(director):
    event = services.event_create(owner=director, name="Odd evening", game="roolz")
    for name in ["Ann", "Ben", "Cat", "Dan", "Eve"]:
        services.entrant_add(event=event, name=name, user=director)
    event.table_size = 4
    event.save(update_fields=["table_size"])
    round_ = publish_next(event, director)
    byes = list(round_.byes.values_list("entrant__name", flat=True))
    rows = printouts.seating_list(selectors.draw_for(event=event)).rows
    assert [row[0] for row in rows] == ["Ann", "Ben", "Cat", "Dan", "Eve"]
    assert {row[0] for row in rows if row[1] == "bye"} == set(byes)
    assert len(byes) == 1


# --------------------------------------------------------------------------- scoresheets


def test_every_scoresheet_of_the_round_carries_its_table_and_names(
    event, eager_celery, django_capture_on_commit_callbacks
):
    pdf = print_pdf(event, printouts.ROUND_SCORESHEETS, django_capture_on_commit_callbacks)
    tables = seated(event, 1)
    assert page_count(pdf) == len(tables)  # one page per table
    for number, seats in sorted(tables.items()):
        text = squeezed(page_text(pdf, number))
        assert squeezed(f"Table {number} · Roolz scoresheet") in text
        for _, name, _ in seats:
            assert squeezed(name) in text, (number, name)


def test_the_named_scoresheet_is_the_printing_apps_blank_sheet_with_names(event):
    from printing.scoresheets import blank_sheet

    draw = selectors.draw_for(event=event)
    what = printouts.printout_request(event=event, kind=printouts.ROUND_SCORESHEETS)
    sheets = list(SOURCES.for_request(what).sheets(what)[0])
    for sheet, table in zip(sheets, draw.tables, strict=True):
        blank = blank_sheet("roolz", len(table.seats), {"target": 300})
        assert sheet.groups == blank.groups and sheet.blank
        assert [s.name for s in sheet.seats] == [s.name for s in table.seats]
        assert sheet.title == f"Table {table.number} · Roolz scoresheet"


# --------------------------------------------------------------------------- standings


def test_the_standings_sheet_matches_the_standings(
    event, director, eager_celery, django_capture_on_commit_callbacks
):
    for table in TournamentRound.objects.get(event=event, number=1).tables.all():
        play_table(table)
    event.refresh_from_db()
    standings = selectors.standings_for(event=event)
    text = page_text(
        print_pdf(event, printouts.STANDINGS, django_capture_on_commit_callbacks), layout=True
    )
    lines = [line for line in text.splitlines() if line.strip()]
    found = []
    # A column with no value in any row is left out of the sheet.
    kept = columns_with_values((row.values for row in standings.rows), len(standings.labels))
    assert len(kept) < len(standings.labels)  # this event's head to head is all dashes
    for row in standings.rows:
        values = [printouts.metric_value(row.values[i]) for i in kept]
        cells = [str(row.rank), row.name, *values, str(row.played)]
        pattern = r"\s+".join(re.escape(cell) for cell in cells)
        matches = [i for i, line in enumerate(lines) if re.search(rf"^\s*{pattern}\s*$", line)]
        assert len(matches) == 1, (row, pattern)
        found.append(matches[0])
    assert found == sorted(found)  # in the standings' order
    assert any(v not in (None, 0) for row in standings.rows for v in row.values)


def test_the_standings_are_final_once_the_event_is_closed(event, director):
    event.status = Event.Status.CLOSED
    assert printouts.standings_list(event).title.startswith("Final standings")
    event.status = Event.Status.RUNNING
    assert printouts.standings_list(event).title.startswith("Standings")


# --------------------------------------------------------------------------- every page fits


def test_every_kind_of_page_fits_a4_and_letter(event):
    for table in TournamentRound.objects.get(event=event, number=1).tables.all():
        play_table(table)
    for kind in printouts.KINDS:
        what = printouts.printout_request(event=event, kind=kind, base_url=BASE)
        for page in SOURCES.for_request(what).sheets(what)[0]:
            for paper in PAPERS:
                assert fit_problems(page, paper) == [], (kind, paper)


# --------------------------------------------------------------------------- requests


def test_round_printouts_need_a_published_round(director):
    event = services.event_create(owner=director, name="Not yet", game="roolz")
    for kind in printouts.ROUND_KINDS:
        with pytest.raises(PrintRequestError, match="no tournament round is published"):
            printouts.printout_request(event=event, kind=kind, base_url=BASE)
    assert printouts.printout_request(event=event, kind=printouts.STANDINGS)["kind"] == (
        printouts.STANDINGS
    )


def test_a_round_is_named_and_must_be_published(event, director):
    what = printouts.printout_request(event=event, kind=printouts.SEATING_LIST, round_number=1)
    assert what == {"kind": "event_seating_list", "event": event.pk, "round": 1}
    for table in event.rounds.get(number=1).tables.all():
        play_table(table)
    services.tournament_round_generate(event=event, user=director)  # round 2, a draft
    with pytest.raises(PrintRequestError, match="tournament round 2 is not published"):
        printouts.printout_request(event=event, kind=printouts.SEATING_LIST, round_number=2)
    with pytest.raises(PrintRequestError, match="printout must be one of"):
        printouts.printout_request(event=event, kind="posters")


def test_table_cards_need_the_sites_address(event, settings):
    settings.TABLESCORE_BASE_URL = ""
    with pytest.raises(PrintRequestError, match="TABLESCORE_BASE_URL"):
        printouts.printout_request(event=event, kind=printouts.TABLE_CARDS)
    with pytest.raises(PrintRequestError, match="TABLESCORE_BASE_URL"):
        printouts.printout_request(event=event, kind=printouts.TABLE_CARDS, base_url="scores")
    # The setting wins over the request's address (behind a proxy the request may be wrong).
    settings.TABLESCORE_BASE_URL = "https://tables.example.net/"
    what = printouts.printout_request(
        event=event, kind=printouts.TABLE_CARDS, base_url="http://10.0.0.5:8000"
    )
    assert what["base_url"] == "https://tables.example.net"


def test_a_change_players_can_see_prints_afresh(
    event, director, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = printouts.printout_create(event=event, kind=printouts.STANDINGS)
        again = printouts.printout_create(event=event, kind=printouts.STANDINGS)
    assert first.pk == again.pk
    with django_capture_on_commit_callbacks(execute=True):  # the game's hook runs on commit
        play_table(TournamentRound.objects.get(event=event, number=1).tables.first())
    with django_capture_on_commit_callbacks(execute=True):
        later = printouts.printout_create(event=event, kind=printouts.STANDINGS)
    assert later.pk != first.pk


# --------------------------------------------------------------------------- print views


def test_the_director_prints_the_round_cards_from_one_post(
    client, event, director, eager_celery, django_capture_on_commit_callbacks
):
    client.force_login(director)
    url = reverse("tournaments:printout", args=[event.pk, printouts.TABLE_CARDS])
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"round": "1", "paper": "letter"})
    job = PrintJob.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == reverse("printing:print_job", args=[job.token])
    assert job.paper_size == "LETTER" and job.status == PrintJob.Status.DONE
    assert job.what["base_url"] == "http://testserver"
    assert job.about == "Table cards of Friday Roolz at the Crown, tournament round 1, US Letter"
    listed = {p.kind: p for p in printouts_for(event=event)}
    assert set(listed) == set(printouts.KINDS) and listed[printouts.TABLE_CARDS].url == url


def test_only_the_events_director_prints_it(client, event):
    url = reverse("tournaments:printout", args=[event.pk, printouts.STANDINGS])
    assert client.post(url).status_code == 302  # to the login page
    stranger = get_user_model().objects.create_user("stranger", password="x", is_staff=True)
    client.force_login(stranger)
    assert client.post(url).status_code == 404
    assert not PrintJob.objects.exists()


def test_a_printout_that_cannot_be_made_says_why(client, director):
    event = services.event_create(owner=director, name="Not yet", game="roolz")
    client.force_login(director)
    url = reverse("tournaments:printout", args=[event.pk, printouts.SEATING_LIST])
    answer = client.post(url, {"round": "x"})
    assert answer.status_code == 400
    assert b"the tournament round is named by its number" in answer.content
    answer = client.post(url)
    assert answer.status_code == 400
    assert b"no tournament round is published yet" in answer.content
