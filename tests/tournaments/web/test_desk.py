"""The director's desk: every page and action, who may use it, and bad input."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.models import Game, Round
from tests.tournaments.helpers import DEALS, enter_and_confirm, play_table
from tests.tournaments.web.conftest import NAMES, publish_next
from tournaments import hooks, tasks
from tournaments.events import services
from tournaments.models import Entrant, Event, EventLog, KeepApart, TableSeat, TournamentRound
from tournaments.web.desk import views

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def entrant(event: Event, name: str) -> Entrant:
    return event.entrants.get(name=name)


# --------------------------------------------------------------------------- who may see what


def desk_urls(event: Event) -> list[tuple[str, str]]:
    """Every desk page and action of an event, with its method."""
    ann = entrant(event, "Ann")
    return [
        ("get", url("desk_event", event.pk)),
        ("get", url("desk_live", event.pk)),
        ("post", url("entrant_add", event.pk)),
        ("post", url("entrants_csv", event.pk)),
        ("post", url("entrant_check_in", event.pk, ann.pk)),
        ("post", url("entrant_drop", event.pk, ann.pk)),
        ("post", url("keep_apart_add", event.pk)),
        ("post", url("round_generate", event.pk)),
        ("get", url("generation", event.pk)),
        ("get", url("desk_round", event.pk, 1)),
        ("post", url("round_swap", event.pk, 1)),
        ("post", url("round_publish", event.pk, 1)),
        ("post", url("round_undo", event.pk, 1)),
        ("post", url("event_close", event.pk)),
        ("get", url("standings_csv", event.pk)),
        ("get", url("event_json", event.pk)),
    ]


def test_the_desk_needs_a_login(client, event):
    for method, address in [("get", url("desk")), ("get", url("event_new")), *desk_urls(event)]:
        response = getattr(client, method)(address)
        assert response.status_code == 302, address
        assert response["Location"].startswith(reverse("admin:login")), address


def test_another_directors_event_is_not_found(client, other_director, event):
    services.tournament_round_generate(event=event)
    client.force_login(other_director)
    for method, address in desk_urls(event):
        assert getattr(client, method)(address).status_code == 404, address
    assert client.get(url("desk")).content.count(b"Friday Roolz") == 0
    # Nothing changed on the way.
    assert not event.entrants.filter(dropped=True).exists()
    assert event.rounds.get().status == TournamentRound.Status.DRAFT


def test_the_event_list_shows_only_ones_own_events(desk, event, other_director):
    services.event_create(owner=other_director, name="Someone else's night", game="rummoli")
    page = desk.get(url("desk")).content.decode()
    assert "Friday Roolz" in page
    assert "Someone else" not in page


def test_the_home_page_leads_to_the_desk(client):
    assert url("desk") in client.get("/").content.decode()


# --------------------------------------------------------------------------- creating an event


def test_the_new_event_page_offers_the_games_options_and_default_metrics(desk):
    page = desk.get(url("event_new") + "?game=rummoli").content.decode()
    assert 'name="option-' in page
    # Rummoli's default standings order is filled in, first metric first.
    assert '<option value="placement_points" selected>' in page
    assert page.index('id="metric-1"') < page.index('value="placement_points" selected')


def test_choosing_a_game_refreshes_the_form_in_place(desk):
    response = desk.post(url("event_new"), {"game": "roller_derby", "refresh": "game"}, **HX)
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="setup"')
    assert '<option value="wins" selected>' in response.content.decode()


def test_creating_an_event(desk, director):
    form = {
        "name": "Spring cup",
        "game": "rummoli",
        "format": "swiss",
        "rounds_planned": "4",
        "table_size": "",
        "metric-1": "wins",
        "metric-2": "game_points",
        "metric-3": "",
        "bye_scoring": "fixed",
        "bye_value": "2",
        "confirmation": "other_side",
        "option-present": "1",
    }
    response = desk.post(url("event_new"), form)
    event = Event.objects.get(name="Spring cup")
    assert response.status_code == 302
    assert response["Location"] == url("desk_event", event.pk)
    assert event.owner == director
    assert (event.game, event.format, event.rounds_planned) == ("rummoli", "swiss", 4)
    assert event.standings_metrics == ["wins", "game_points"]
    assert (event.bye_scoring, event.bye_value) == ("fixed", 2)
    assert EventLog.objects.filter(event=event, action="event_create").exists()


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"name": "  "}, "name", "Give the event a name."),
        ({"rounds_planned": "0"}, "rounds_planned", "from 1 to 30"),
        ({"rounds_planned": "many"}, "rounds_planned", "from 1 to 30"),
        ({"table_size": "11"}, "table_size", ""),
        ({"metric-1": "", "metric-2": ""}, "standings_metrics", "at least one metric"),
        ({"metric-2": "placement_points"}, "standings_metrics", "once"),
        ({"metric-1": "luck"}, "standings_metrics", "metrics must be among"),
        ({"format": "knockout"}, "format", "format must be one of"),
        ({"bye_value": "x"}, "bye_value", "whole number"),
        ({"bye_value": "1" * 30}, "bye_value", "from -100000 to 100000"),
        ({"option-target": "-5"}, "option-target", ""),
    ],
)
def test_a_bad_event_is_refused_beside_its_field(desk, change, field, message):
    form = {
        "name": "Spring cup",
        "game": "roolz",
        "rounds_planned": "3",
        "metric-1": "placement_points",
        "option-present": "1",
        **change,
    }
    response = desk.post(url("event_new"), form)
    assert response.status_code == 200
    assert not Event.objects.filter(name="Spring cup").exists()
    page = response.content.decode()
    assert "Please check the marked fields." in page
    assert 'class="error"' in page
    assert message.lower() in page.lower()


def test_an_event_without_a_game_is_refused(desk):
    response = desk.post(url("event_new"), {"name": "Spring cup"})
    assert response.status_code == 200
    assert "Choose the game." in response.content.decode()


# --------------------------------------------------------------------------- entrants


def test_adding_a_player_by_the_form(desk, event):
    response = desk.post(url("entrant_add", event.pk), {"name": " Zoë "}, **HX)
    assert response.status_code == 200
    assert "Zoë is registered" in response.content.decode()
    assert entrant(event, "Zoë").joined_round == 1


def test_adding_a_team_with_its_members(desk, event):
    desk.post(url("entrant_add", event.pk), {"name": "The Aces", "members": "Uma, Vic"})
    assert entrant(event, "The Aces").members == ["Uma", "Vic"]


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"name": ""}, "The name is empty."),
        ({"name": "ann"}, "ann is already registered."),
        ({"name": "x" * 41}, "at most 40 characters"),
        ({"name": "Solo", "members": "Uma"}, "a team has at least two members"),
    ],
)
def test_a_bad_player_is_refused_beside_the_field(desk, event, form, message):
    count = event.entrants.count()
    response = desk.post(url("entrant_add", event.pk), form, **HX)
    assert response.status_code == 200
    assert message.lower() in response.content.decode().lower()
    assert 'aria-invalid="true"' in response.content.decode()
    assert event.entrants.count() == count


def test_a_csv_file_registers_every_line(desk, director):
    event = services.event_create(owner=director, name="Cup", game="roolz")
    upload = SimpleUploadedFile("players.csv", b"# players\nAnn\nBen\n\nThe Aces,Uma,Vic\n")
    response = desk.post(url("entrants_csv", event.pk), {"file": upload}, **HX)
    assert response.status_code == 200
    page = response.content.decode()
    assert "3 players to register" in page
    assert "line 1 is a comment; line 4 is blank" in page
    assert event.entrants.count() == 0  # a preview first
    text = "# players\nAnn\nBen\n\nThe Aces,Uma,Vic\n"
    response = desk.post(url("entrants_csv", event.pk), {"text": text, "register": "1"}, **HX)
    assert "3 players registered" in response.content.decode()
    assert sorted(event.entrants.values_list("name", flat=True)) == ["Ann", "Ben", "The Aces"]


def test_pasted_names_register_too(desk, director):
    event = services.event_create(owner=director, name="Cup", game="roolz")
    desk.post(url("entrants_csv", event.pk), {"text": "Ann\nBen"})
    assert event.entrants.count() == 0
    desk.post(url("entrants_csv", event.pk), {"text": "Ann\nBen", "register": "1"})
    assert event.entrants.count() == 2


def test_a_csv_file_with_mistakes_names_every_line_and_registers_nobody(desk, director):
    event = services.event_create(owner=director, name="Cup", game="roolz")
    text = "Ann\n\nANN\nSolo,Uma\n" + "x" * 45 + "\n"
    upload = SimpleUploadedFile("players.csv", text.encode())
    response = desk.post(url("entrants_csv", event.pk), {"file": upload}, **HX)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Nobody was registered" in page
    assert "Line 3: ANN is repeated in the file (lines 1 and 3)" in page
    assert "Line 4: a team has at least two members" in page
    assert "Line 5: the name is at most 40 characters" in page
    assert "Line 1" not in page
    assert event.entrants.count() == 0


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({}, "Choose a CSV file, or paste the names."),
        ({"file": SimpleUploadedFile("p.csv", b"\xff\xfeA\x00")}, "not UTF-8"),
        ({"file": SimpleUploadedFile("p.csv", b"\n#only a comment\n")}, "holds no names"),
    ],
)
def test_a_bad_csv_file_is_explained(desk, director, form, message):
    event = services.event_create(owner=director, name="Cup", game="roolz")
    response = desk.post(url("entrants_csv", event.pk), form, **HX)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert event.entrants.count() == 0


def test_too_many_pasted_names_are_refused(desk, director):
    event = services.event_create(owner=director, name="Cup", game="roolz")
    response = desk.post(url("entrants_csv", event.pk), {"text": "a" * 200_000}, **HX)
    assert "upload a file" in response.content.decode()
    assert event.entrants.count() == 0


def test_a_huge_csv_file_is_refused(desk, director, monkeypatch):
    monkeypatch.setattr(views, "CSV_LARGEST", 10)
    event = services.event_create(owner=director, name="Cup", game="roolz")
    upload = SimpleUploadedFile("p.csv", b"Ann\nBen\nCat\nDan\n")
    response = desk.post(url("entrants_csv", event.pk), {"file": upload}, **HX)
    assert "larger than" in response.content.decode()
    assert event.entrants.count() == 0


def test_check_in_toggles(desk, event):
    ann = entrant(event, "Ann")
    response = desk.post(url("entrant_check_in", event.pk, ann.pk), {"checked_in": "on"}, **HX)
    assert response.status_code == 200
    assert "1 checked in" in response.content.decode()
    ann.refresh_from_db()
    assert ann.checked_in
    desk.post(url("entrant_check_in", event.pk, ann.pk), {}, **HX)
    ann.refresh_from_db()
    assert not ann.checked_in


def test_a_player_of_another_event_is_not_found(desk, director, event):
    other = services.event_create(owner=director, name="Other", game="roolz")
    stranger = services.entrant_add(event=other, name="Stranger")
    assert desk.post(url("entrant_check_in", event.pk, stranger.pk)).status_code == 404
    assert desk.post(url("entrant_drop", event.pk, stranger.pk)).status_code == 404


def test_drop_and_late_entry_between_rounds(desk, event, director):
    publish_next(event, director)
    ann = entrant(event, "Ann")
    desk.post(url("entrant_drop", event.pk, ann.pk), **HX)
    ann.refresh_from_db()
    assert ann.dropped
    again = desk.post(url("entrant_drop", event.pk, ann.pk), **HX)
    assert "Ann has already dropped." in again.content.decode()

    response = desk.post(url("entrant_add", event.pk), {"name": "Mo"}, **HX)
    assert "joins from the next tournament round" in response.content.decode()
    assert entrant(event, "Mo").joined_round == 2
    # CSV import is for registration only.
    refused = desk.post(url("entrants_csv", event.pk), {"text": "Ned"}, **HX)
    assert "add late entries one by one" in refused.content.decode()


def test_keep_apart_pairs(desk, event):
    ann, ben = entrant(event, "Ann"), entrant(event, "Ben")
    response = desk.post(url("keep_apart_add", event.pk), {"first": ann.pk, "second": ben.pk}, **HX)
    assert "Ann and Ben" in response.content.decode()
    assert KeepApart.objects.filter(event=event).count() == 1
    twice = desk.post(url("keep_apart_add", event.pk), {"first": ben.pk, "second": ann.pk}, **HX)
    assert "already kept apart" in twice.content.decode()
    same = desk.post(url("keep_apart_add", event.pk), {"first": ann.pk, "second": ann.pk}, **HX)
    assert "Choose two different players." in same.content.decode()
    missing = desk.post(url("keep_apart_add", event.pk), {"first": "x", "second": ""}, **HX)
    assert "Choose the first player." in missing.content.decode()
    assert "Choose the second player." in missing.content.decode()
    assert KeepApart.objects.filter(event=event).count() == 1


# --------------------------------------------------------------------------- rounds


def test_generating_shows_the_draft_with_its_report(desk, event):
    response = desk.post(url("round_generate", event.pk))
    assert response["Location"] == url("desk_round", event.pk, 1)
    page = desk.get(response["Location"]).content.decode()
    assert "The draft" in page
    assert "Repeated table-mates" in page
    assert "Seating cost" in page
    for name in NAMES:
        assert name in page
    assert event.rounds.get().status == TournamentRound.Status.DRAFT


def test_generating_with_too_few_players_is_explained(desk, director):
    event = services.event_create(owner=director, name="Cup", game="roolz")
    services.entrant_add(event=event, name="Ann")
    response = desk.post(url("round_generate", event.pk), **HX)
    assert response.status_code == 200
    assert "At least two players are needed" in response.content.decode()


def test_a_large_event_is_seated_by_the_worker_with_its_progress(
    desk, director, monkeypatch, eager_celery, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(tasks, "BACKGROUND_FROM", 8)
    event = services.event_create(owner=director, name="Big", game="roolz")
    services.entrants_import_csv(event=event, text="\n".join(NAMES))
    with django_capture_on_commit_callbacks(execute=True):
        response = desk.post(url("round_generate", event.pk), **HX)
        # Queued: the desk polls the progress until the worker is done.
        page = response.content.decode()
        assert response.status_code == 200
        assert "Seating round 1: waiting for the worker" in page
        assert 'hx-trigger="every 1s"' in page
        assert not event.rounds.exists()
    # The task runs once the request's transaction commits (eagerly here).
    page = desk.get(url("generation", event.pk), **HX).content.decode()
    assert "Round 1 is seated." in page
    assert "every 1s" not in page
    assert event.rounds.get().status == TournamentRound.Status.DRAFT
    assert EventLog.objects.filter(event=event, action="round_generation_done").exists()


def test_generation_in_progress_polls(desk, event):
    services.tournament_round_generation_mark(
        event=event, state="running", round=1, step="seating", done=2
    )
    page = desk.get(url("generation", event.pk), **HX).content.decode()
    assert 'hx-trigger="every 1s"' in page
    assert "Seating round 1: seating" in page
    assert '<progress max="3" value="2">' in page


def draft_seats(event: Event) -> dict[str, tuple[int, int]]:
    return {
        s.entrant.name: (s.table.number, s.seat)
        for s in TableSeat.objects.filter(table__round__event=event).select_related(
            "entrant", "table"
        )
    }


def test_swapping_two_players_shows_the_cost_change(desk, event):
    services.tournament_round_generate(event=event)
    before = draft_seats(event)
    ann, ben = entrant(event, "Ann"), entrant(event, "Ben")
    if before["Ann"][0] == before["Ben"][0]:
        ben = next(e for e in event.entrants.all() if before[e.name][0] != before["Ann"][0])
    response = desk.post(url("round_swap", event.pk, 1), {"first": ann.pk, "second": ben.pk}, **HX)
    page = response.content.decode()
    assert response.status_code == 200
    assert f"Ann and {ben.name} swapped places." in page
    report = event.rounds.get().report
    assert f"→ {report['cost']}" in page
    assert draft_seats(event)["Ann"] == before[ben.name]


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"first": "", "second": ""}, "Choose the first player."),
        ({"first": "Ann", "second": "Ann"}, "Choose two different players."),
    ],
)
def test_a_bad_swap_is_explained(desk, event, form, message):
    services.tournament_round_generate(event=event)
    ids = {name: str(entrant(event, name).pk) for name in NAMES}
    form = {key: ids.get(value, value) for key, value in form.items()}
    response = desk.post(url("round_swap", event.pk, 1), form, **HX)
    assert response.status_code == 200
    assert message in response.content.decode()


def test_a_published_round_cannot_be_swapped(desk, event, director):
    publish_next(event, director)
    ann, ben = entrant(event, "Ann"), entrant(event, "Ben")
    response = desk.post(url("round_swap", event.pk, 1), {"first": ann.pk, "second": ben.pk})
    assert response.status_code == 200
    assert "Round 1 is published" in response.content.decode()


def test_publishing_and_undoing(desk, event, client):
    services.tournament_round_generate(event=event)
    response = desk.post(url("round_publish", event.pk, 1))
    assert response["Location"] == url("desk_round", event.pk, 1)
    round_ = event.rounds.get()
    assert round_.status == TournamentRound.Status.PUBLISHED
    page = desk.get(url("desk_round", event.pk, 1)).content.decode()
    assert "Undo round 1" in page
    assert "Entry link" in page and "View link" in page
    assert "data-print-links" in page
    desk.post(url("round_undo", event.pk, 1))
    round_.refresh_from_db()
    assert round_.status == TournamentRound.Status.DRAFT
    assert not round_.tables.exclude(game=None).exists()


def test_undo_after_a_result_is_refused(desk, event, director):
    round_ = publish_next(event, director)
    table = round_.tables.select_related("game").first()
    enter_and_confirm(table.game, 1, DEALS[table.game.seats.count()][0])
    response = desk.post(url("round_undo", event.pk, 1))
    assert response.status_code == 200
    assert f"Results are in at table {table.number}" in response.content.decode()
    assert event.rounds.get().status == TournamentRound.Status.PUBLISHED
    assert "Undo round 1" not in desk.get(url("desk_round", event.pk, 1)).content.decode()


def test_publishing_twice_is_explained(desk, event, director):
    publish_next(event, director)
    response = desk.post(url("round_publish", event.pk, 1))
    assert response.status_code == 200
    assert "Round 1 is published" in response.content.decode()


def test_an_unknown_round_is_not_found(desk, event):
    assert desk.get(url("desk_round", event.pk, 7)).status_code == 404
    assert desk.post(url("round_publish", event.pk, 7)).status_code == 404


def test_a_published_round_prints_its_table_cards_from_the_desk(
    desk, event, director, eager_celery, django_capture_on_commit_callbacks
):
    from printing.models import PrintJob

    publish_next(event, director)
    page = desk.get(url("desk_round", event.pk, 1)).content.decode()
    cards = reverse("tournaments:printout", args=[event.pk, "event_table_cards"])
    assert f'action="{cards}"' in page
    assert 'name="round" value="1"' in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = desk.post(cards, {"round": "1", "paper": "A4"})
    assert answer.status_code == 302
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.DONE, job.error
    assert bytes(job.pdf).startswith(b"%PDF")
    job_page = desk.get(answer["Location"]).content.decode()
    assert f'href="{url("desk_round", event.pk, 1)}">Back to the round</a>' in job_page


# --------------------------------------------------------------------------- live tables


def test_the_live_tables_answer_204_while_nothing_changed(desk, event, director):
    round_ = publish_next(event, director)
    event.refresh_from_db()
    live = url("desk_live", event.pk)
    assert desk.get(live, {"rev": event.revision}, **HX).status_code == 204
    table = round_.tables.select_related("game").first()
    hooks.table_game_changed(game_id=table.game_id)
    round_record_first_deal(table)
    response = desk.get(live, {"rev": event.revision}, **HX)
    assert response.status_code == 200
    assert "Waiting for confirmation" in response.content.decode()
    # Without htmx the live part sends the browser to the page.
    assert desk.get(live)["Location"] == url("desk_event", event.pk)


def round_record_first_deal(table) -> None:
    from scoring.services import Actor, round_record

    deal = DEALS[table.game.seats.count()][0]
    round_record(game=table.game, number=1, entry=deal, actor=Actor(seat=0, device="phone"))


def test_the_round_page_shows_each_tables_state(desk, event, director):
    round_ = publish_next(event, director)
    tables = list(round_.tables.select_related("game"))
    play_table(tables[0])
    round_record_first_deal(tables[1])
    page = desk.get(url("desk_round", event.pk, 1), {"part": "live", "rev": "old"}, **HX)
    text = page.content.decode()
    assert text.count("badge state-done") == 1
    assert text.count("badge state-waiting") == 1
    assert text.count("badge state-playing") == len(tables) - 2
    event.refresh_from_db()
    unchanged = desk.get(
        url("desk_round", event.pk, 1), {"part": "live", "rev": event.revision}, **HX
    )
    assert unchanged.status_code == 204


# --------------------------------------------------------------------------- results


def test_correcting_a_result(desk, event, director):
    round_ = publish_next(event, director)
    table = round_.tables.select_related("game").get(number=1)
    play_table(table)
    page = desk.get(url("desk_table", event.pk, table.pk)).content.decode()
    assert url("result_correct", event.pk, table.pk, 1) in page
    form_page = desk.get(url("result_correct", event.pk, table.pk, 1))
    assert form_page.status_code == 200
    size = table.game.seats.count()
    if size == 4:
        form = {"bidder": "1", "bid": "170", "won-A": "100", "won-B": "200"}
    else:
        form = {"bidder": "1", "bid": "170", "won-bidder": "200", "won-opponents": "100"}
    form["revision"] = str(Game.objects.get(pk=table.game_id).revision)
    form["reason"] = "the scoresheet says bidder 2"
    response = desk.post(url("result_correct", event.pk, table.pk, 1), {"number": "1", **form})
    assert response.status_code == 302, response.content.decode()[:2000]
    form["revision"] = str(Game.objects.get(pk=table.game_id).revision)
    deal = Round.objects.get(game=table.game, number=1)
    assert deal.entry["bidder"] == 1
    assert deal.status == Round.Status.CONFIRMED
    # From the page (htmx), the browser is sent back to the table's deals.
    again = desk.post(url("result_correct", event.pk, table.pk, 1), {"number": "1", **form}, **HX)
    assert again["HX-Redirect"] == url("desk_table", event.pk, table.pk) + "?done=correct"
    log = EventLog.objects.filter(event=event, action="result_correct").first()
    assert log.user == director
    assert log.before["entry"]["bidder"] == 0
    assert log.after["reason"] == "the scoresheet says bidder 2"


def test_a_bad_correction_stays_on_the_form(desk, event, director):
    round_ = publish_next(event, director)
    table = round_.tables.select_related("game").get(number=1)
    play_table(table)
    response = desk.post(url("result_correct", event.pk, table.pk, 1), {"number": "1", "bid": "x"})
    assert response.status_code == 200
    assert (
        'class="error"' in response.content.decode() or "notice error" in response.content.decode()
    )
    assert not EventLog.objects.filter(event=event, action="result_correct").exists()


def test_a_deal_that_does_not_exist_is_not_found(desk, event, director):
    round_ = publish_next(event, director)
    table = round_.tables.get(number=1)
    assert desk.get(url("result_correct", event.pk, table.pk, 5)).status_code == 404
    assert desk.get(url("desk_table", event.pk, 999999)).status_code == 404


# --------------------------------------------------------------------------- closing, export


def test_closing_needs_every_table_done(desk, event, director):
    round_ = publish_next(event, director)
    response = desk.post(url("event_close", event.pk))
    assert response.status_code == 200
    assert "These tables are not done yet" in response.content.decode()
    for table in round_.tables.select_related("game"):
        play_table(table)
    response = desk.post(url("event_close", event.pk))
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.CLOSED
    page = desk.get(url("desk_event", event.pk)).content.decode()
    assert "Closed" in page
    assert "Add a player" not in page


def test_standings_as_csv(desk, event, director):
    round_ = publish_next(event, director)
    for table in round_.tables.select_related("game"):
        play_table(table)
    response = desk.get(url("standings_csv", event.pk))
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="friday-roolz-standings.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["Rank", "Name", "Placement points"]
    assert len(rows) == 1 + len(NAMES)
    assert sorted(r[1] for r in rows[1:]) == sorted(NAMES)
    assert rows[1][0] == "1"
    assert float(rows[1][2]) == 7  # a table's winner


def test_the_event_as_json(desk, event, director):
    publish_next(event, director)
    response = desk.get(url("event_json", event.pk))
    assert 'filename="friday-roolz.json"' in response["Content-Disposition"]
    data = json.loads(response.content)
    event.refresh_from_db()
    assert data == json.loads(json.dumps(services.event_export(event=event)))
    assert [e["name"] for e in data["entrants"]] == NAMES


def test_a_closed_event_refuses_every_change(desk, event, director):
    round_ = publish_next(event, director)
    for table in round_.tables.select_related("game"):
        play_table(table)
    services.event_close(event=event, user=director)
    ann = entrant(event, "Ann")
    added = desk.post(url("entrant_add", event.pk), {"name": "Mo"}, **HX)
    assert "This event is closed." in added.content.decode()
    dropped = desk.post(url("entrant_drop", event.pk, ann.pk), **HX)
    assert "This event is closed." in dropped.content.decode()
    seated = desk.post(url("round_generate", event.pk), **HX)
    assert "This event is closed." in seated.content.decode()
    closed = desk.post(url("event_close", event.pk))
    assert "This event is closed." in closed.content.decode()
    assert not event.entrants.filter(name="Mo").exists()
    assert event.rounds.count() == 1
