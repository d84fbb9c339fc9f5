"""The admin shows no entry token, nor a print job's: an account given view rights there
is not a player. The desk shows a director's own tables' links and audit trail."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from printing.models import PrintJob
from printing.services import printjob_create
from printing.sources import games_request
from scoring.services import Actor, round_record
from tests.scoring.factories import new_game, roolz_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def viewer(client):
    """A staff account given view rights on games, rounds, the audit and print jobs."""
    user = get_user_model().objects.create_user("viewer", password="pw", is_staff=True)
    codenames = ["view_game", "view_round", "view_roundevent", "view_printjob"]
    user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    client.force_login(user)
    return client


def test_no_entry_token_shows_in_the_admin(viewer):
    game = new_game()
    round_record(game=game, number=1, entry=roolz_round(), actor=Actor())
    job = printjob_create(what=games_request([game.pk]))
    pages = [
        reverse("admin:scoring_game_changelist"),
        reverse("admin:scoring_game_change", args=[game.pk]),
        reverse("admin:scoring_round_changelist"),
        reverse("admin:scoring_roundevent_changelist"),
        reverse("admin:printing_printjob_changelist"),
        reverse("admin:printing_printjob_change", args=[job.pk]),
    ]
    job = PrintJob.objects.get(pk=job.pk)
    for page in pages:
        answer = viewer.get(page)
        assert answer.status_code == 200, page
        html = answer.content.decode()
        assert game.table_token not in html, page
        assert game.view_token not in html, page
        assert job.token not in html, page
    shown = viewer.get(reverse("admin:scoring_game_change", args=[game.pk])).content.decode()
    assert "the event&#x27;s desk show the entry link" in shown
