"""Standings values written as the reader's language writes numbers: the public standings
page and the printed standings sheet say 1,33 in French and 1.33 in English; the new-event
page offers the metrics in the reader's language."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from tests.i18n.test_desk_pages import FRENCH
from tests.tournaments.club.test_flow import NAMES, play_round
from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import selectors, services
from tournaments.models import Event
from tournaments.printouts.sources import standings_list
from tournaments.standings.core import METRIC_LABELS, Metric
from tournaments.standings.core.shown import metric_text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


@pytest.fixture
def played(director, django_capture_on_commit_callbacks) -> Event:
    event = services.event_create(
        owner=director,
        name="Jeudi",
        game="roolz",
        options=ROOLZ_OPTIONS,
        rounds_planned=2,
        standings_metrics=["share", "placement_points"],
    )
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    play_round(event, director, django_capture_on_commit_callbacks)
    return event


def fractions(event: Event) -> list[str]:
    """The standings' values with a decimal part, as English writes them."""
    rows = selectors.standings_for(event=event).rows
    found = [metric_text(v) for row in rows for v in row.values if v is not None]
    return [t for t in found if "." in t]


def test_the_public_standings_write_numbers_as_the_readers_language(client, played):
    shown = fractions(played)
    assert shown, "a share of the table's points has a decimal part"
    url = reverse("tournaments:standings", args=[played.public_token])
    french = html.unescape(client.get(url, **FRENCH).content.decode())
    english = html.unescape(client.get(url).content.decode())
    for value in shown:
        assert f">{value.replace('.', ',')}<" in french.replace(" ", "").replace("\n", "")
        assert f">{value}<" in english.replace(" ", "").replace("\n", "")
        assert f">{value}<" not in french.replace(" ", "").replace("\n", "")


def test_the_printed_standings_write_numbers_as_the_readers_language(played):
    shown = fractions(played)
    assert shown
    with translation.override("fr-ca"):
        french = {cell for row in standings_list(played).rows for cell in row}
    with translation.override("en"):
        english = {cell for row in standings_list(played).rows for cell in row}
    for value in shown:
        assert value.replace(".", ",") in french
        assert value not in french
        assert value in english


def test_the_metric_choices_are_in_the_readers_language(client, director):
    client.force_login(director)
    url = reverse("tournaments:event_new")
    french = html.unescape(client.get(url, {"game": "roolz"}, **FRENCH).content.decode())
    english = html.unescape(client.get(url, {"game": "roolz"}).content.decode())
    with translation.override("fr-ca"):
        labels = {m: translation.gettext(METRIC_LABELS[m]) for m in Metric}
    for metric in Metric:
        assert METRIC_LABELS[metric] in english
        assert labels[metric] in french
        if labels[metric] != METRIC_LABELS[metric]:
            assert f">{METRIC_LABELS[metric]}<" not in french
    assert labels[Metric.PLACEMENT_POINTS] != METRIC_LABELS[Metric.PLACEMENT_POINTS]
