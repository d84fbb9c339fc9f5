"""The round clock: start, pause, resume, extend; pages count down and say "Last deal"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import selectors, services
from tournaments.models import Event, EventLog, TournamentRound

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="pw", is_staff=True)


@pytest.fixture
def running(director) -> tuple[Event, TournamentRound]:
    event = services.event_create(owner=director, name="Night", game="roolz", options=ROOLZ_OPTIONS)
    services.entrants_import_csv(event=event, text="Ann\nBen\nCat\nDan", user=director)
    draft = services.tournament_round_generate(event=event, user=director)
    return event, services.tournament_round_publish(event=event, round=draft, user=director)


def test_start_pause_resume_extend(running, director):
    event, round_ = running
    assert selectors.clock_of(round_).state == "off"
    round_ = services.tournament_round_clock_start(
        event=event, round=round_, minutes="30", user=director
    )
    shown = selectors.clock_of(round_)
    assert shown.state == "running" and 29 * 60 <= shown.seconds_left <= 30 * 60
    round_ = services.tournament_round_clock_pause(event=event, round=round_, user=director)
    paused = selectors.clock_of(round_, now=timezone.now() + timedelta(hours=1))
    assert paused.state == "paused" and paused.seconds_left == shown.seconds_left
    round_ = services.tournament_round_clock_extend(
        event=event, round=round_, minutes=5, user=director
    )
    assert selectors.clock_of(round_).seconds_left == shown.seconds_left + 300
    round_ = services.tournament_round_clock_resume(event=event, round=round_, user=director)
    assert selectors.clock_of(round_).state == "running"
    actions = list(
        EventLog.objects.filter(action__startswith="round_clock").values_list(
            "action", "user__username"
        )
    )
    assert [a for a, _ in actions] == [
        "round_clock_start",
        "round_clock_pause",
        "round_clock_extend",
        "round_clock_resume",
    ]
    assert {u for _, u in actions} == {"director"}


def test_at_zero_the_clock_says_last_deal(running, director):
    event, round_ = running
    round_ = services.tournament_round_clock_start(
        event=event, round=round_, minutes=1, user=director
    )
    later = selectors.clock_of(round_, now=timezone.now() + timedelta(minutes=2))
    assert later.seconds_left == 0 and later.label == selectors.LAST_DEAL
    round_ = services.tournament_round_clock_extend(
        event=event, round=round_, minutes=3, user=director
    )
    assert selectors.clock_of(round_).seconds_left > 170


@pytest.mark.parametrize("minutes", ["0", "-5", "abc", "", "241", None])
def test_nonsense_minutes_name_the_field(running, director, minutes):
    event, round_ = running
    with pytest.raises(services.TournamentError) as refused:
        services.tournament_round_clock_start(
            event=event, round=round_, minutes=minutes, user=director
        )
    assert refused.value.problems[0].field == "minutes"
    assert selectors.clock_of(TournamentRound.objects.get(pk=round_.pk)).state == "off"


def test_pausing_a_clock_not_running_is_refused(running, director):
    event, round_ = running
    with pytest.raises(services.TournamentError, match="not running"):
        services.tournament_round_clock_pause(event=event, round=round_, user=director)
    with pytest.raises(services.TournamentError, match="start the clock first"):
        services.tournament_round_clock_extend(event=event, round=round_, minutes=5, user=director)


def test_the_desk_control_is_refused_by_the_service_for_an_unknown_choice(running, director):
    event, round_ = running
    with pytest.raises(services.TournamentError) as refused:
        services.tournament_round_clock_change(
            event=event, round=round_, do="stop", minutes="5", user=director
        )
    assert refused.value.problems[0].field == "clock"
    started = services.tournament_round_clock_change(
        event=event, round=round_, do="start", minutes="5", user=director
    )
    assert selectors.clock_of(started).state == "running"


@settings(max_examples=50, deadline=None)
@given(seconds=st.integers(min_value=-100, max_value=20_000))
def test_the_label_is_minutes_and_seconds_or_last_deal(seconds):
    shown = selectors.Clock("running", None, max(0, seconds)).label
    if seconds <= 0:
        assert shown == selectors.LAST_DEAL
    else:
        minutes, rest = shown.split(":")
        assert int(minutes) * 60 + int(rest) == seconds


def test_the_players_page_and_projector_show_the_clock(running, director, client):
    event, round_ = running
    services.tournament_round_clock_start(event=event, round=round_, minutes=20, user=director)
    for name in ("draw", "projector"):
        page = client.get(reverse(f"tournaments:{name}", args=[event.public_token])).content
        assert b"data-clock" in page and b"Time left" in page, name


def test_the_desk_runs_the_clock_and_explains_bad_minutes(running, director, client):
    event, _ = running
    client.force_login(director)
    address = reverse("tournaments:round_clock", args=[event.pk, 1])
    page = client.post(address, {"do": "start", "minutes": "x"}).content.decode()
    assert "Minutes are a whole number from 1 to 240" in page
    assert client.post(address, {"do": "start", "minutes": "45"}).status_code == 302
    page = client.get(reverse("tournaments:desk_round", args=[event.pk, 1])).content.decode()
    assert 'value="pause"' in page and "Time left" in page
    page = client.post(address, {"do": "dance"}).content.decode()
    assert "Choose start, pause, resume or extend" in page
