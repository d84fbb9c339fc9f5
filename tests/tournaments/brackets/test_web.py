"""The bracket's pages: public by token, live without reloading, the director's desk owned."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from printing.models import PrintJob
from tests.tournaments.brackets.test_flow import TEAMS, current_rows, play_derby
from tournaments.events import services
from tournaments.models import BracketStage, EventLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


@pytest.fixture
def event(director):
    event = services.event_create(owner=director, name="Derby Cup", game="roller_derby")
    for name, members in TEAMS[:8]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    return event


def test_public_page_before_and_after_the_draw(client, director, event):
    response = client.get(f"/e/{event.public_token}/bracket/")
    assert response.status_code == 200
    assert "not drawn yet" in response.content.decode()
    client.force_login(director)
    response = client.post(
        f"/desk/{event.pk}/bracket/",
        {"action": "create", "kind": "single", "seeding": "standings", "draw_rule": "replay"},
    )
    assert response.status_code == 302
    client.logout()
    page = client.get(f"/e/{event.public_token}/bracket/").content.decode()
    for name in ("Aces", "Hawks", "Quarterfinals", "Semifinals", "Final", "table"):
        assert name.lower() in page.lower()
    stage = BracketStage.objects.get(event=event)
    game = current_rows(stage)["R1-1"].game
    assert f"/v/{game.view_token}/" in page and game.table_token not in page
    assert "the table plays again" in page


def test_live_board_answers_204_until_something_changes(
    client, director, event, django_capture_on_commit_callbacks
):
    client.force_login(director)
    client.post(f"/desk/{event.pk}/bracket/", {"action": "create", "kind": "single"})
    event.refresh_from_db()
    live = f"/e/{event.public_token}/bracket/live/?rev={event.revision}"
    assert client.get(live).status_code == 204
    stage = BracketStage.objects.get(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        play_derby(current_rows(stage)["R1-1"].game, "A")
    response = client.get(live)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="bracket-board"' in body and "<html" not in body
    assert "went-on" in body


def test_desk_is_for_the_owner_only(client, director, event):
    url = f"/desk/{event.pk}/bracket/"
    assert client.get(url).status_code == 302  # to the login page
    stranger = get_user_model().objects.create_user("stranger", password="x", is_staff=True)
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    assert client.post(url, {"action": "create", "kind": "single"}).status_code == 404
    assert not BracketStage.objects.filter(event=event).exists()


def test_desk_shows_problems_by_field_and_audits_an_override(client, director, event):
    client.force_login(director)
    url = f"/desk/{event.pk}/bracket/"
    response = client.post(url, {"action": "create", "kind": "single", "draw_rule": "coin"})
    assert response.status_code == 400
    assert 'data-field="draw_rule"' in response.content.decode()
    response = client.post(
        url,
        {"action": "create", "kind": "single", "seeding": "manual", "order": "Hawks\nAces"},
    )
    assert response.status_code == 400
    assert 'data-field="order"' in response.content.decode()
    client.post(url, {"action": "create", "kind": "single"})
    response = client.post(
        url,
        {"action": "override", "match": "R1-1", "finish": "Hawks\nAces", "reason": "Aces late"},
    )
    assert response.status_code == 302
    log = EventLog.objects.get(event=event, action="bracket_override")
    assert log.after["reason"] == "Aces late" and log.user == director
    page = client.get(f"/e/{event.public_token}/bracket/").content.decode()
    assert "Decided by the director: Aces late" in page


def test_bracket_pdf_and_print_job(
    client, director, event, eager_celery, django_capture_on_commit_callbacks
):
    client.force_login(director)
    client.post(f"/desk/{event.pk}/bracket/", {"action": "create", "kind": "single"})
    response = client.get(f"/e/{event.public_token}/bracket/bracket.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/desk/{event.pk}/bracket/print/")
    assert response.status_code == 302 and "/print/jobs/" in response["Location"]
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.DONE, job.error
    assert bytes(job.pdf).startswith(b"%PDF")


@pytest.mark.parametrize(
    ("reason", "message"),
    [
        ("", "an override needs a reason"),
        ("   \t\n ", "an override needs a reason"),
        ("\u200b\u200c\u200d\ufeff", "an override needs a reason"),
        (" \u2060\u00a0\u3000 ", "an override needs a reason"),
        ("x" * 501, "the reason is at most 500 characters"),
        ("late\x00", "the reason holds characters that cannot be shown"),
    ],
)
def test_an_override_reason_must_hold_visible_text_and_fit(
    client, director, event, reason, message
):
    client.force_login(director)
    url = f"/desk/{event.pk}/bracket/"
    client.post(url, {"action": "create", "kind": "single"})
    response = client.post(
        url, {"action": "override", "match": "R1-1", "finish": "Hawks\nAces", "reason": reason}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-field="reason"' in html
    assert message in html
    assert not EventLog.objects.filter(event=event, action="bracket_override").exists()


def test_a_reason_of_500_characters_is_kept_whole(client, director, event):
    client.force_login(director)
    url = f"/desk/{event.pk}/bracket/"
    client.post(url, {"action": "create", "kind": "single"})
    reason = "é" * 500
    response = client.post(
        url, {"action": "override", "match": "R1-1", "finish": "Hawks\nAces", "reason": reason}
    )
    assert response.status_code == 302
    assert EventLog.objects.get(event=event, action="bracket_override").after["reason"] == reason
