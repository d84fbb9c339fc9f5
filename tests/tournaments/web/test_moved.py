"""One URL scheme: the director under /desk/, players under /e/<code>/; old addresses redirect."""

from __future__ import annotations

import pytest
from django.urls import resolve, reverse

from tournaments.models import BracketStage

pytestmark = pytest.mark.django_db


def old_and_new(event):
    token, pk = event.public_token, event.pk
    return [
        (f"/bracket/{token}/", f"/e/{token}/bracket/"),
        (f"/bracket/{token}/live/", f"/e/{token}/bracket/live/"),
        (f"/bracket/{token}/bracket.pdf", f"/e/{token}/bracket/bracket.pdf"),
        (f"/events/{pk}/bracket/", f"/desk/{pk}/bracket/"),
        (f"/events/{pk}/bracket/print/", f"/desk/{pk}/bracket/print/"),
        (f"/print/events/{pk}/seating_list/", f"/desk/{pk}/print/seating_list/"),
    ]


def test_every_old_address_answers_a_permanent_redirect_to_its_new_one(client, event):
    for old, new in old_and_new(event):
        response = client.get(old)
        assert response.status_code == 308, old
        assert response["Location"] == new, old


def test_a_redirect_keeps_the_query_and_the_method(client, event):
    old, new = old_and_new(event)[1]
    response = client.get(f"{old}?rev=7&big=1")
    assert response["Location"] == f"{new}?rev=7&big=1"
    posted = client.post(f"/events/{event.pk}/bracket/", {"action": "create"})
    # 308, not 301: a browser posts the same form again to the new address.
    assert posted.status_code == 308
    assert posted["Location"] == f"/desk/{event.pk}/bracket/"


def test_an_old_bracket_form_still_creates_the_bracket_through_the_redirect(desk, event):
    response = desk.post(
        f"/events/{event.pk}/bracket/",
        {"action": "create", "kind": "tables", "table_size": "4", "advance": "2"},
        follow=True,
    )
    assert response.redirect_chain[0] == (f"/desk/{event.pk}/bracket/", 308)
    assert BracketStage.objects.filter(event=event).exists()


def test_the_director_lives_under_desk_and_players_under_their_event_code(event):
    desk_names = {"desk_event", "bracket_desk", "bracket_print", "printout"}
    player_names = {"draw", "standings", "projector", "bracket", "bracket_live", "bracket_pdf"}
    token, pk = event.public_token, event.pk
    for name in desk_names:
        args = [pk, "seating_list"] if name == "printout" else [pk]
        assert reverse(f"tournaments:{name}", args=args).startswith(f"/desk/{pk}/")
    for name in player_names:
        url = reverse(f"tournaments:{name}", args=[token])
        assert url.startswith(f"/e/{token}/")
        assert resolve(url).namespace == "tournaments"


def test_an_old_address_of_someone_elses_event_redirects_to_a_page_that_refuses(
    client, other_director, event
):
    client.force_login(other_director)
    response = client.get(f"/events/{event.pk}/bracket/", follow=True)
    assert response.status_code == 404
