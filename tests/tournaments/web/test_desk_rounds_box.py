"""The desk's "Tournament rounds" box: each button names the round (and the draft) it
was drawn for, a button drawn before the rounds moved on is refused in words, the box
follows the event live, and a seating queued in the background shows as queued."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.web.conftest import publish_next
from tournaments.events import services
from tournaments.models import Event, TournamentRound

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def generate_form(page: str) -> dict[str, str]:
    """The hidden fields of the rounds box's "Seat round" button, as drawn."""
    found = re.search(
        r'name="round" value="(\d+)"><input type="hidden" name="draft" value="(\d*)">', page
    )
    assert found, "the seat button names no round"
    return {"round": found.group(1), "draft": found.group(2)}


def test_the_seat_button_names_its_round_and_draft(desk, event, director):
    page = desk.get(url("desk_event", event.pk)).content.decode()
    assert generate_form(page) == {"round": "1", "draft": ""}
    draft = services.tournament_round_generate(event=event, user=director)
    page = desk.get(url("desk_event", event.pk)).content.decode()
    assert generate_form(page) == {"round": "1", "draft": str(draft.pk)}
    assert "Seat round 1 again" in page


def test_seating_again_a_round_published_meanwhile_is_refused(desk, event, director):
    services.tournament_round_generate(event=event, user=director)
    drawn = generate_form(desk.get(url("desk_event", event.pk)).content.decode())
    # Another tab (or a co-director) publishes round 1.
    services.tournament_round_publish(event=event, round=event.rounds.get(), user=director)
    response = desk.post(url("round_generate", event.pk), {**drawn, "go_on": "1"}, **HX)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Round 1 changed since you opened it: it is published, and round 2 is next" in page
    assert list(event.rounds.values_list("number", flat=True)) == [1]
    # The box drawn again names round 2.
    assert generate_form(page)["round"] == "2"


def test_seating_a_round_a_draft_was_seated_for_meanwhile_is_refused(desk, event, director):
    drawn = generate_form(desk.get(url("desk_event", event.pk)).content.decode())
    draft = services.tournament_round_generate(event=event, user=director)
    response = desk.post(url("round_generate", event.pk), drawn)
    assert "Round 1 changed since you opened it: a draft of it was seated meanwhile" in (
        response.content.decode()
    )
    assert event.rounds.get().pk == draft.pk  # the co-director's draft stays


def test_the_button_as_drawn_still_seats(desk, event):
    drawn = generate_form(desk.get(url("desk_event", event.pk)).content.decode())
    response = desk.post(url("round_generate", event.pk), drawn)
    assert response["Location"] == url("desk_round", event.pk, 1)
    assert event.rounds.get().status == TournamentRound.Status.DRAFT


def test_publishing_a_draft_seated_again_meanwhile_is_refused(desk, event, director):
    first = services.tournament_round_generate(event=event, user=director)
    page = desk.get(url("desk_round", event.pk, 1)).content.decode()
    assert f'name="draft" value="{first.pk}"' in page
    again = services.tournament_round_generate(event=event, user=director)
    response = desk.post(url("round_publish", event.pk, 1), {"draft": str(first.pk)})
    assert response.status_code == 200
    assert "Round 1 changed since you opened it: it was seated again meanwhile" in (
        response.content.decode()
    )
    again.refresh_from_db()
    assert again.status == TournamentRound.Status.DRAFT
    response = desk.post(url("round_publish", event.pk, 1), {"draft": str(again.pk)})
    assert response["Location"] == url("desk_round", event.pk, 1)


def test_swapping_in_a_draft_seated_again_meanwhile_is_refused(desk, event, director):
    first = services.tournament_round_generate(event=event, user=director)
    services.tournament_round_generate(event=event, user=director)
    ann, ben = event.entrants.get(name="Ann"), event.entrants.get(name="Ben")
    response = desk.post(
        url("round_swap", event.pk, 1),
        {"first": ann.pk, "second": ben.pk, "draft": first.pk},
        **HX,
    )
    assert "Round 1 changed since you opened it: it was seated again meanwhile" in (
        response.content.decode()
    )


def test_the_check_names_every_way_a_round_moves_on(event, director):
    def refusal(number, draft) -> str:
        event.refresh_from_db()
        with pytest.raises(services.TournamentError) as caught:
            services.tournament_round_opened_check(event=event, number=number, draft=draft)
        return str(caught.value)

    services.tournament_round_opened_check(event=event, number=1, draft=None)  # as drawn
    services.tournament_round_opened_check(event=event, number=None, draft=None)  # old page
    round_ = publish_next(event, director)
    assert "it is published, and round 2 is next" in refusal(1, None)
    services.tournament_round_undo(event=event, round=round_, user=director)
    assert "round 1 was taken back to a draft" in refusal(2, None)
    services.tournament_round_generation_mark(event=event, state="queued", round=1, work="publish")
    assert "it is being published in the background" in refusal(1, round_.pk)


def test_the_rounds_box_follows_the_event_live(desk, event, director):
    draft = services.tournament_round_generate(event=event, user=director)
    page = desk.get(url("desk_event", event.pk)).content.decode()
    event.refresh_from_db()
    poll = url("desk_live", event.pk) + f"?part=rounds&rev={event.revision}"
    assert poll.replace("&", "&amp;") in page
    assert desk.get(poll, **HX).status_code == 204  # nothing changed
    services.tournament_round_publish(event=event, round=draft, user=director)
    response = desk.get(poll, **HX)
    assert response.status_code == 200
    box = response.content.decode()
    assert box.lstrip().startswith('<section id="rounds"')
    assert "Seat round 1 again" not in box
    assert generate_form(box)["round"] == "2"


def test_a_queued_seating_shows_as_queued_not_as_a_button(desk, event: Event):
    services.tournament_round_generation_mark(event=event, state="queued", round=1, work="seat")
    page = desk.get(url("desk_event", event.pk)).content.decode()
    assert "Seating round 1 in the background: queued" in page
    assert ">Seat round 1<" not in page
    services.tournament_round_generation_mark(event=event, state="done", round=1, work="seat")
    page = desk.get(url("desk_event", event.pk)).content.decode()
    assert "Seat round 1" in page


def restart_form(page: str) -> dict[str, str]:
    """The hidden fields of the "Start ... again" button, as drawn."""
    found = re.search(
        r'name="round" value="(\d*)"><input type="hidden" name="work" value="(\w+)">'
        r"<button[^>]*>Start (seating|publishing) round",
        page,
    )
    assert found, "the restart button names no round"
    return {"round": found.group(1), "work": found.group(2)}


def stuck(event: Event, number: int, work: str) -> None:
    """A background job of round ``number`` that has said nothing for a minute."""
    services.tournament_round_generation_mark(event=event, state="queued", round=number, work=work)
    Event.objects.filter(pk=event.pk).update(
        generation={**Event.objects.get(pk=event.pk).generation, "at": 1.0}
    )


def test_starting_again_a_job_that_is_no_longer_the_one_stuck_is_refused(desk, event):
    stuck(event, 1, "seat")
    page = desk.get(url("desk_event", event.pk)).content.decode()
    form = restart_form(page)
    assert form == {"round": "1", "work": "seat"}
    # Meanwhile the seating ended, and the publishing of round 1 is stuck in its turn.
    services.tournament_round_generation_mark(event=event, state="done", round=1)
    stuck(event, 1, "publish")
    refused = desk.post(url("generation_restart", event.pk), form, **HX).content.decode()
    assert "Round 1 changed since you opened it: round 1 is being published now" in refused
    assert Event.objects.get(pk=event.pk).generation.get("restarts", 0) == 0
    # With nothing under way any more, the button drawn before is refused in words too.
    services.tournament_round_generation_mark(event=event, state="done", round=1)
    refused = desk.post(url("generation_restart", event.pk), form, **HX).content.decode()
    assert "Round 1 changed since you opened it: nothing is being seated or published now" in (
        refused
    )


def test_starting_again_the_job_as_drawn_sends_it_again(desk, event):
    stuck(event, 1, "publish")
    form = restart_form(desk.get(url("desk_event", event.pk)).content.decode())
    assert form == {"round": "1", "work": "publish"}
    desk.post(url("generation_restart", event.pk), form, **HX)
    assert Event.objects.get(pk=event.pk).generation["restarts"] == 1
