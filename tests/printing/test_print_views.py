"""The printing pages: a game's sheet by its table token, stacks of blank sheets, progress."""

from __future__ import annotations

import re
import subprocess
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from printing import services, sources
from printing.models import STALE_AFTER, PrintJob, stall_after
from printing.scoresheets import blank_kinds
from scoring.services import Actor, round_correct
from tests.scoring.factories import new_game, roolz_round

NAMES = ["Zoë", "Łukasz", "Søren", "Ðorđe"]
HX = {"HTTP_HX_REQUEST": "true"}

pytestmark = pytest.mark.django_db


def pdf_text(pdf: bytes) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode("utf-8")


def named_game(rounds: int = 3):
    record = {
        "format": 1,
        "game": "roolz",
        "players": NAMES,
        "options": {"target": 1000},
        "rounds": [roolz_round(bidder=n % 4, a=190 + 5 * n) for n in range(rounds)],
    }
    return new_game(record)


# --------------------------------------------------------------------------- one game


def test_a_game_sheet_downloads_by_its_table_token(client):
    game = named_game()
    round_correct(game=game, number=2, entry=roolz_round(bidder=1, a=120), actor=Actor())
    response = client.get(reverse("printing:scoresheet_pdf", args=[game.table_token]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'attachment; filename="roolz-game-{game.pk}.pdf"'
    assert "no-store" in response["Cache-Control"]
    text = pdf_text(response.content)
    for name in NAMES:
        assert name in text
    assert "Target score: 1000" in text
    assert "Round 2 (marked *) corrected after first entry." in text
    assert f"Game #{game.pk}" in text
    assert "In progress after 3 rounds" in text


def test_the_paper_size_follows_the_setting_and_the_request(client, settings):
    game = named_game(rounds=1)
    url = reverse("printing:scoresheet_pdf", args=[game.table_token])
    settings.TABLESCORE_PAPER_SIZE = "LETTER"
    assert b"/MediaBox [ 0 0 612 792 ]" in client.get(url).content
    assert b"/MediaBox [ 0 0 595.2756 841.8898 ]" in client.get(url + "?paper=a4").content
    settings.TABLESCORE_PAPER_SIZE = "A4"
    assert b"/MediaBox [ 0 0 612 792 ]" in client.get(url + "?paper=letter").content
    assert b"/MediaBox [ 0 0 595.2756 841.8898 ]" in client.get(url + "?paper=A3").content


def test_an_unknown_table_token_is_not_found(client):
    response = client.get(reverse("printing:scoresheet_pdf", args=["no-such-table-at-all"]))
    assert response.status_code == 404
    assert client.get("/t/no-such-table/scoresheet.pdf").status_code == 404  # not a token


# --------------------------------------------------------------------------- blank sheets


def test_the_blank_sheets_page_offers_every_game_and_player_count(client):
    response = client.get(reverse("printing:blank_sheets"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="viewport"' in html
    for kind in blank_kinds():
        assert f'value="{kind.key}"' in html
    assert "Roolz, 6 players (three pairs)" in html
    assert "Rook Sluff, 4 players (single deck)" in html
    assert "US Letter" in html and 'value="A4"' in html
    assert 'inputmode="numeric"' in html
    assert '<option value="roolz:4" selected>' in html  # a table of four of the first game


def test_a_stack_is_printed_and_offered_for_download(
    client, eager_celery, django_capture_on_commit_callbacks
):
    url = reverse("printing:blank_sheets")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"sheet": "rook_sluff:8", "copies": "6", "paper": "LETTER"})
    job = PrintJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("printing:print_job", args=[job.token])
    page = client.get(response["Location"]).content.decode()
    assert "6 blank Rook Sluff sheets for 8 players, US Letter" in page
    assert "Download the PDF" in page
    assert "hx-trigger" not in page  # finished: no more polling
    download = client.get(reverse("printing:print_job_file", args=[job.token]))
    assert download.status_code == 200
    assert download["Content-Type"] == "application/pdf"
    assert 'filename="rook-sluff-8-players-blank-x6.pdf"' in download["Content-Disposition"]
    assert pdf_text(download.content).count("Rook Sluff scoresheet") == 6


def test_with_htmx_the_form_is_swapped_for_the_job(
    client, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("printing:blank_sheets"),
            {"sheet": "roolz:6:six_player=three_pairs", "copies": "2", "paper": "A4"},
            **HX,
        )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'id="print-job"' in html
    assert "2 blank Roolz sheets for 6 players, A4" in html
    job = PrintJob.objects.get()
    assert job.what["options"] == {"six_player": "three_pairs"}
    assert "Team C" in pdf_text(bytes(job.pdf))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"sheet": "roolz:4", "copies": "0", "paper": "A4"}, "greater than or equal to 1"),
        ({"sheet": "roolz:4", "copies": "999", "paper": "A4"}, "less than or equal to 200"),
        ({"sheet": "rummoli:9", "copies": "1", "paper": "A4"}, "Select a valid choice"),
        ({"sheet": "roolz:4", "copies": "1", "paper": "A3"}, "Select a valid choice"),
    ],
)
def test_a_mistake_comes_back_with_the_form(client, data, message):
    response = client.post(reverse("printing:blank_sheets"), data, **HX)
    assert response.status_code == 200  # htmx swaps only 2xx answers
    html = response.content.decode()
    assert 'id="blank-sheets"' in html and "<html" not in html
    assert message in html
    assert not PrintJob.objects.exists()


# --------------------------------------------------------------------------- job progress


def make_job(**values) -> PrintJob:
    what = sources.blank_request(game="roolz", players=4, copies=10)
    return PrintJob.objects.create(request_key=values.pop("key", "k"), what=what, **values)


def test_a_running_job_shows_progress_and_keeps_polling(client):
    job = make_job(status=PrintJob.Status.RUNNING, progress_done=3, progress_total=10)
    response = client.get(reverse("printing:print_job_status", args=[job.token]), **HX)
    html = response.content.decode()
    assert "<html" not in html
    assert 'value="3"' in html and 'max="10"' in html
    assert "Drawing sheet 3 of 10 (30%)" in html
    assert f'hx-get="{reverse("printing:print_job_status", args=[job.token])}"' in html
    assert 'hx-trigger="load delay:1s"' in html
    assert response["Cache-Control"].startswith("max-age=0")


def test_a_queued_job_waits_for_the_print_service_to_start(client):
    job = make_job()
    html = client.get(reverse("printing:print_job", args=[job.token])).content.decode()
    assert "Waiting for the print service to start" in html
    assert "hx-trigger" in html


def test_a_failed_job_is_reported_on_the_page_and_can_be_tried_again(
    client, eager_celery, django_capture_on_commit_callbacks
):
    job = make_job(status=PrintJob.Status.FAILED, error="The sheets could not be drawn (boom).")
    html = client.get(reverse("printing:print_job", args=[job.token])).content.decode()
    assert "The sheets could not be printed." in html
    assert "The sheets could not be drawn (boom)." in html
    assert "hx-trigger" not in html
    retry = reverse("printing:print_job_retry", args=[job.token])
    assert f'action="{retry}"' in html
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(retry, **HX)
    assert 'id="print-job"' in response.content.decode()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE


def test_a_stalled_job_is_started_again_when_its_page_is_looked_at(
    client, eager_celery, django_capture_on_commit_callbacks
):
    job = make_job(status=PrintJob.Status.RUNNING, progress_done=2, progress_total=10)
    PrintJob.objects.filter(pk=job.pk).update(updated_at=timezone.now() - stall_after() * 2)
    html = client.get(reverse("printing:print_job_status", args=[job.token]), **HX).content.decode()
    assert "Ready: 10 sheets" in html
    job.refresh_from_db()
    assert (job.status, job.restarts, job.attempts) == (PrintJob.Status.DONE, 1, 1)


def test_a_job_that_keeps_stopping_fails_and_can_be_tried_again(
    client, eager_celery, settings, django_capture_on_commit_callbacks
):
    job = make_job(
        status=PrintJob.Status.RUNNING,
        progress_done=2,
        progress_total=10,
        restarts=settings.PRINT_RESTARTS,
    )
    PrintJob.objects.filter(pk=job.pk).update(updated_at=timezone.now() - stall_after() * 2)
    html = client.get(reverse("printing:print_job_status", args=[job.token]), **HX).content.decode()
    assert f"The print service stopped {settings.PRINT_RESTARTS + 1} times" in html
    assert "Try again" in html and "hx-trigger" not in html
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("printing:print_job_retry", args=[job.token]))
    job.refresh_from_db()
    assert (job.status, job.restarts) == (PrintJob.Status.DONE, 0)


def test_a_stuck_job_offers_to_try_again_while_the_print_service_is_away(client, broker_down):
    job = make_job(status=PrintJob.Status.RUNNING, progress_done=2, progress_total=10)
    long_ago = timezone.now() - STALE_AFTER - timedelta(minutes=1)
    PrintJob.objects.filter(pk=job.pk).update(updated_at=long_ago)
    html = client.get(reverse("printing:print_job_status", args=[job.token]), **HX).content.decode()
    assert "has not moved for a long while" in html
    assert "hx-trigger" not in html
    assert f'action="{reverse("printing:print_job_retry", args=[job.token])}"' in html


def test_a_print_request_while_the_print_service_is_away_waits_for_it(
    client, broker_down, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("printing:blank_sheets"),
            {"sheet": "roolz:4", "copies": 2, "paper": "A4"},
        )
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.WAITING
    html = client.get(response["Location"]).content.decode()
    assert "Waiting for the print service." in html
    assert "start by themselves as soon as it is back" in html
    assert 'hx-trigger="load delay:3s"' in html


def test_a_waiting_job_starts_when_its_page_is_looked_at_and_the_service_is_back(
    client, eager_celery
):
    job = make_job(status=PrintJob.Status.WAITING, sent_at=timezone.now() - timedelta(minutes=1))
    html = client.get(reverse("printing:print_job", args=[job.token])).content.decode()
    assert "Ready: 10 sheets" in html
    job.refresh_from_db()
    assert (job.status, job.attempts) == (PrintJob.Status.DONE, 1)


def test_old_jobs_are_forgotten(eager_celery, django_capture_on_commit_callbacks):
    old = make_job(key="old", status=PrintJob.Status.DONE)
    long_ago = timezone.now() - services.KEEP_JOBS - timedelta(days=1)
    PrintJob.objects.filter(pk=old.pk).update(updated_at=long_ago)
    with django_capture_on_commit_callbacks(execute=True):
        services.printjob_create(what=sources.blank_request(game="roolz", players=2, copies=1))
    assert not PrintJob.objects.filter(pk=old.pk).exists()


def test_an_unfinished_job_has_no_file(client):
    job = make_job(status=PrintJob.Status.RUNNING)
    assert client.get(reverse("printing:print_job_file", args=[job.token])).status_code == 404
    assert client.get(reverse("printing:print_job", args=["no-such-job-at-all"])).status_code == 404
    assert client.get("/print/jobs/nope/").status_code == 404  # not a token


# --------------------------------------------------------------------------- many games


def test_several_games_print_as_one_job(client, eager_celery, django_capture_on_commit_callbacks):
    first = named_game()
    second = new_game()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("printing:print_games"),
            {"token": [first.table_token, second.table_token], "paper": "letter"},
        )
    job = PrintJob.objects.get()
    assert response.status_code == 302
    assert job.what == {"kind": "games", "games": [first.pk, second.pk]}
    assert job.paper_size == "LETTER"
    text = pdf_text(bytes(job.pdf))
    assert "Ðorđe" in text and "Ann" in text


def test_printing_games_needs_real_tokens(client):
    response = client.post(reverse("printing:print_games"), {"token": ["made-up"]})
    assert response.status_code == 400
    assert "some of these games do not exist" in response.content.decode()
    response = client.post(reverse("printing:print_games"), {})
    assert response.status_code == 400


def test_my_games_prints_the_games_it_lists(
    client, settings, eager_celery, django_capture_on_commit_callbacks
):
    settings.TABLESCORE_PAPER_SIZE = "letter"
    first = named_game()
    second = new_game()
    other = new_game()
    for game in (first, second):
        client.get(reverse("scoring:table", args=[game.table_token]))
    html = client.get(reverse("scoring:my_games")).content.decode()
    form = html[html.index('class="card print-games"') :]
    form = form[: form.index("</form>")]
    assert f'action="{reverse("printing:print_games")}"' in form
    assert 'method="post"' in form and "csrfmiddlewaretoken" in form
    tokens = re.findall(r'name="token" value="([^"]+)"', form)
    assert tokens == [second.table_token, first.table_token]  # as listed, newest first
    assert other.table_token not in html
    papers = re.findall(r'name="paper" value="(\w+)"( checked)?', form)
    assert papers == [("A4", ""), ("LETTER", " checked")]  # the site's paper is chosen
    assert "Print these games" in form
    with django_capture_on_commit_callbacks(execute=True):
        data = {"token": tokens, "paper": "LETTER"}
        response = client.post(reverse("printing:print_games"), data)
    job = PrintJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("printing:print_job", args=[job.token])
    assert job.what == {"kind": "games", "games": [second.pk, first.pk]}
    page = client.get(response["Location"]).content.decode()
    assert "Scoresheets of 2 games, US Letter" in page
    assert "Download the PDF" in page
    assert f'href="{reverse("scoring:my_games")}"' in page
    download = client.get(reverse("printing:print_job_file", args=[job.token]))
    text = pdf_text(download.content)
    assert text.count("Roolz scoresheet") == 2
    assert "Ðorđe" in text and "Ann" in text


def test_my_games_without_games_offers_no_printing(client):
    html = client.get(reverse("scoring:my_games")).content.decode()
    assert "print-games" not in html
    assert reverse("printing:print_games") not in html


def test_the_directors_desk_prints_the_selected_games(
    client, admin_user, eager_celery, django_capture_on_commit_callbacks
):
    game = named_game()
    client.force_login(admin_user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:scoring_game_changelist"),
            {"action": "print_scoresheets", "_selected_action": [game.pk]},
        )
    job = PrintJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("printing:print_job", args=[job.token])
    assert job.status == PrintJob.Status.DONE
    assert client.get(reverse("admin:printing_printjob_changelist")).status_code == 200
