"""Table forms: a round number that is not the next or an existing round gets the form's
error, for saving and for a misdeal, with and without htmx; never a 500, nothing lost."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Round
from tests.web.test_table_views import FORM_1, HX, ROUND_1, make_game, url

pytestmark = pytest.mark.django_db

NONSENSE = [
    "0",
    "",
    "-1",
    "-0",
    "abc",
    "1.5",
    "3",
    "99999999999999999999999",
    " ",
    "1e3",
    "٣",
    "\x00",
]


def post(client, game, number, action, htmx):
    data = {**FORM_1, "number": number, "key": f"k-{action}-{number!r}", "action": action}
    if number is None:
        data.pop("number")
    return client.post(url("table_entry", game), data, **({"headers": HX} if htmx else {}))


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize("action", ["save", "misdeal"])
@pytest.mark.parametrize("number", [*NONSENSE, None])
def test_a_round_number_that_is_not_the_next_gets_the_forms_error(client, number, action, htmx):
    game = make_game(rounds=[ROUND_1])
    response = post(client, game, number, action, htmx)
    assert response.status_code == 200
    html = response.content.decode()
    assert "the next deal is deal 2" in html.lower() or "already recorded" in html
    # Nothing recorded on the way, nothing lost.
    assert list(Round.objects.filter(game=game).values_list("number", "entry")) == [(1, ROUND_1)]


@pytest.mark.parametrize("action", ["save", "misdeal"])
def test_an_existing_round_number_shows_what_is_recorded(client, action):
    game = make_game(rounds=[ROUND_1])
    html = post(client, game, "1", action, True).content.decode()
    assert "already recorded" in html
    assert Round.objects.filter(game=game).count() == 1


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(number=st.text(max_size=30), action=st.sampled_from(["save", "misdeal"]))
def test_no_round_number_ever_answers_500(client, number, action):
    game = make_game(rounds=[ROUND_1])
    response = post(client, game, number, action, True)
    assert response.status_code == 200
    assert Round.objects.filter(game=game).count() in (1, 2)


HUGE = "9" * 30


@pytest.mark.parametrize(
    "path",
    [
        f"rounds/{HUGE}/confirm/",
        f"rounds/{HUGE}/correct/",
        f"requests/{HUGE}/",
        "rounds/0/confirm/",
    ],
)
@pytest.mark.parametrize("method", ["get", "post"])
def test_round_numbers_in_the_address_never_answer_500(client, path, method):
    game = make_game(rounds=[ROUND_1])
    response = getattr(client, method)(url("table", game) + path, {"seat": "1"}, headers=HX)
    assert response.status_code < 500
    assert Round.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("number", [*NONSENSE, HUGE])
def test_undo_with_a_nonsense_number_never_answers_500(client, number):
    game = make_game(rounds=[ROUND_1])
    response = client.post(url("round_undo", game), {"number": number}, headers=HX)
    assert response.status_code < 500
