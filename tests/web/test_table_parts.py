"""The table's parts drawn for htmx are the page's own, and read no more than they need.

The rounds a page shows are read in one query built once, or, in a game without
confirmation, with its score; they must be the rounds the ORM reads.

``render_parts`` draws the partials in one context without the locale's number format;
every game's parts, played or over, with rounds pending or not, must come out exactly as
the template draws them with the locale's format. The seats a page shows come from the
kept standing, and must be the seats as stored.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.db.models import Q
from django.http import Http404
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django_htmx.middleware import HtmxDetails
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engines.samples import roolz
from scoring.entry.fields import SeatInfo
from scoring.models import Round
from scoring.selectors import game_score
from scoring.services import Actor, GameChangeError, game_create, round_record, round_save
from scoring.web import presenters
from scoring.web.phone import game_for
from scoring.web.scores import (
    LAST_ROUNDS,
    READ_AHEAD,
    SHOWN_FIELDS,
    game_and_recent_score,
    recent_score,
)
from scoring.web.table_page import (
    RECENT_ROUNDS,
    SHOWN_ROUNDS,
    TEMPLATE,
    new_entry_form,
    render_parts,
    shown_rounds,
    table_context,
)
from tests.games import GAMES, expected, samples

pytestmark = pytest.mark.django_db

SAMPLES = {game: samples(game) for game in GAMES}
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
PARTS = ("entry", "live", "recent", "identity")


def a_request():
    request = RequestFactory().post("/", HTTP_HX_REQUEST="true")
    request.session = {}  # type: ignore[assignment]
    request.htmx = HtmxDetails(request)  # type: ignore[attr-defined]
    request.user = type("Anonymous", (), {"is_authenticated": False})()
    return request


def with_the_locale(request, context, parts, oob) -> str:
    """The parts as the template draws them one by one, numbers through the locale."""
    html = [render_to_string(f"{TEMPLATE}#{part}", context, request) for part in parts]
    html += [render_to_string(f"{TEMPLATE}#{p}", {**context, "oob": True}, request) for p in oob]
    return CSRF.sub("csrf", "".join(html))


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@pytest.mark.parametrize("rounds", [0, 3, 60])
@pytest.mark.parametrize("confirmation", ["off", "other_side"])
def test_the_parts_are_drawn_as_the_template_draws_them(kind, rounds, confirmation):
    record = SAMPLES[kind].sample_record(rounds=rounds, seed=3)
    game = game_create(record=record, confirmation=confirmation).game
    if confirmation != "off" and game.status != "finished":
        entry = SAMPLES[kind].sample_record(rounds=rounds + 1, seed=3)["rounds"][-1]
        # A sample whose next round no longer fits the game leaves nothing pending.
        with contextlib.suppress(GameChangeError):
            round_record(game=game, number=rounds + 1, entry=entry, actor=Actor(seat=0))
    game.refresh_from_db()
    request = a_request()
    context = table_context(request, game, key="k")
    for parts, oob in (
        (["entry"], ["live", "recent"]),
        (["live"], ["recent", "entry"]),
        (list(PARTS), []),
    ):
        drawn = CSRF.sub("csrf", render_parts(request, parts, context, oob=oob).content.decode())
        assert drawn == with_the_locale(request, context, parts, oob)


def test_large_totals_are_written_the_same_with_and_without_the_locale():
    record = roolz.sample_record(rounds=2, seed=1, players=4)
    record["options"] = {**record.get("options", {}), "target": 10**6}
    game = game_create(record=record).game
    game.score_cache["totals"] = [123456, -98765, 123456, -98765]
    request = a_request()
    context = table_context(request, game, key="k")
    drawn = CSRF.sub("csrf", render_parts(request, ["live"], context).content.decode())
    assert drawn == with_the_locale(request, context, ["live"], [])
    assert "123456" in drawn


# The player counts each game's samples are made for (None: the sample's own choice).
SEATINGS = {game: [None, *expected(game).SAMPLE_SEATINGS] for game in GAMES}


@pytest.mark.parametrize(
    ("kind", "players"), [(kind, n) for kind in sorted(SAMPLES) for n in SEATINGS[kind]]
)
def test_the_seats_read_from_the_standing_are_the_seats_stored(kind, players):
    sample = SAMPLES[kind]
    record = sample.sample_record(rounds=4, seed=2, **({"players": players} if players else {}))
    game = game_create(record=record).game
    stored = [SeatInfo(s.number, s.name, s.team) for s in game.seats.order_by("number")]
    assert presenters.seat_infos(game) == stored
    game.score_cache = {}
    assert presenters.seat_infos(game) == stored  # no standing kept: the seats are read


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rounds=st.integers(0, 12), after=st.integers(-3, 14), pending=st.booleans())
def test_the_rounds_a_page_reads_are_the_ones_the_orm_reads(rounds, after, pending):
    record = roolz.sample_record(rounds=rounds, seed=rounds, players=4)
    record["options"] = {**record.get("options", {}), "target": 10**6}
    game = game_create(record=record, confirmation="other_side" if pending else "off").game
    if pending:
        entry = roolz.sample_record(rounds=rounds + 1, seed=rounds, players=4)["rounds"][-1]
        round_record(game=game, number=rounds + 1, entry=entry, actor=Actor(seat=0))

    def row(round_):
        return {f.attname: getattr(round_, f.attname) for f in Round._meta.concrete_fields}

    def shown(round_):
        return [getattr(round_, name) for name in SHOWN_FIELDS]

    orm_shown = game.rounds.filter(Q(number__gt=after) | Q(status="pending")).order_by("number")
    assert [row(r) for r in SHOWN_ROUNDS.instances(game.pk, after)] == [row(r) for r in orm_shown]
    last = game.rounds.order_by("-number").values_list("result", *SHOWN_FIELDS)[:READ_AHEAD]
    assert LAST_ROUNDS.rows(game.pk) == list(last)
    last_three = list(game.rounds.order_by("-number")[:RECENT_ROUNDS])[::-1]
    waiting_read = list(game.rounds.filter(status="pending").order_by("number"))
    # From the rounds read with the score (a game without confirmation), or read apart.
    for score in (recent_score(game), game_score(game)):
        recent, waiting = shown_rounds(game, score)
        assert [shown(r) for r in recent] == [shown(r) for r in last_three]
        assert [shown(r) for r in waiting] == [shown(r) for r in waiting_read]


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from(sorted(SAMPLES)),
    rounds=st.integers(0, READ_AHEAD + 3),
    seed=st.integers(0, 30),
    pending=st.booleans(),
)
def test_a_table_read_with_its_last_rounds_is_the_game_and_score_read_apart(
    kind, rounds, seed, pending
):
    """The game and score a table's views read in one statement (on PostgreSQL) are the
    game as the ORM reads it and the score ``recent_score`` reads after it."""
    record = SAMPLES[kind].sample_record(rounds=rounds + 1, seed=seed)
    head = {key: record[key] for key in record if key != "rounds"}
    entries = record["rounds"]
    game = game_create(
        record={**head, "rounds": entries[:-1]}, confirmation="other_side" if pending else "off"
    ).game
    if pending:
        with contextlib.suppress(GameChangeError):  # unless the game is over already
            round_record(game=game, number=len(entries), entry=entries[-1], actor=Actor(seat=0))
    with CaptureQueriesContext(connection) as statements:
        read, score = game_and_recent_score(game.table_token)
    assert len(statements) == (1 if connection.vendor == "postgresql" else 2)
    apart = game_for(game.table_token)
    concrete = [f.attname for f in apart._meta.concrete_fields]
    assert [getattr(read, name) for name in concrete] == [getattr(apart, n) for n in concrete]
    expected = recent_score(apart)
    assert score.as_dict() == expected.as_dict()
    assert len(score.rounds) == len(expected.rounds)
    assert score.rounds.rows == expected.rounds.rows


def test_an_unknown_table_read_with_its_last_rounds_is_not_found():
    with pytest.raises(Http404):
        game_and_recent_score("x" * 43)


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@pytest.mark.parametrize("played", [0, 2, READ_AHEAD + 1])
def test_a_game_without_confirmation_shows_its_last_rounds_from_its_score_read(
    kind, played, django_assert_num_queries
):
    """Its page reads no rounds besides the score's own read, before and after a round
    saved, and shows the rounds stored."""
    record = SAMPLES[kind].sample_record(rounds=played + 1, seed=played)
    keys = ("format", "game", "players", "options", "first_dealer")
    head = {key: record[key] for key in keys if key in record}
    entries = record["rounds"]
    game = game_create(record={**head, "rounds": entries[:-1]}).game
    before = recent_score(game)
    saved = round_save(
        game=game, number=len(entries), entry=entries[-1], actor=Actor(seat=0), before=before
    )
    assert saved is not None and saved.alone
    with django_assert_num_queries(0):
        recent, waiting = shown_rounds(saved.change.game, saved.score)
    stored = list(game.rounds.order_by("-number")[:RECENT_ROUNDS])[::-1]
    assert waiting == []
    assert [[getattr(r, name) for name in SHOWN_FIELDS] for r in recent] == [
        [getattr(r, name) for name in SHOWN_FIELDS] for r in stored
    ]
    with django_assert_num_queries(1):
        recent_read, _ = shown_rounds(game, recent_score(game))
    assert [r.number for r in recent_read] == [r.number for r in stored]


# --------------------------------------------------------------------------- controls kept


def new_entry_form_of(game, data=None):
    score = recent_score(game)
    seats = presenters.seat_infos(game)
    return new_entry_form(game, seats, score, len(score.rounds) + 1, data=data)


def entry_drawn(game) -> str:
    """The entry part as a phone gets it, its CSRF token and form key left out."""
    request = a_request()
    html = render_parts(request, ["entry"], table_context(request, game, key="k")).content
    return CSRF.sub("csrf", html.decode())


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from(sorted(SAMPLES)),
    seed=st.integers(0, 50),
    lengths=st.lists(st.integers(0, 8), min_size=2, max_size=4, unique=True),
)
def test_a_round_forms_controls_kept_are_the_controls_drawn_anew(kind, seed, lengths):
    """Whatever forms were drawn before (the same table at other rounds, other tables), a
    table's form is the form drawn with nothing kept."""
    kept = caches["template_fragments"]
    kept.clear()
    record = SAMPLES[kind].sample_record(rounds=max(lengths), seed=seed)
    head = {key: record[key] for key in record if key != "rounds"}
    games = [
        game_create(record={**head, "rounds": record["rounds"][:length]}).game for length in lengths
    ]
    for game in games + games[::-1]:
        drawn = entry_drawn(game)
        everything_kept = dict(kept._cache)  # the locmem store, to put back after
        kept.clear()
        assert drawn == entry_drawn(game)
        kept._cache.update(everything_kept)


def test_two_tables_alike_before_the_round_share_their_controls_and_no_others():
    record = roolz.sample_record(rounds=3, seed=4, players=4)
    first, second = (
        game_create(record={**record, "rounds": record["rounds"][:2]}).game for _ in range(2)
    )
    other = game_create(record=record).game
    forms = [new_entry_form_of(game) for game in (first, second, other)]
    assert forms[0].drawn_from == forms[1].drawn_from != ""
    assert forms[2].drawn_from not in ("", forms[0].drawn_from)  # another dealer


def test_a_form_holding_posted_values_is_drawn_anew():
    game = game_create(record=roolz.sample_record(rounds=0, seed=1, players=4)).game
    request = a_request()
    before = table_context(request, game, key="k")
    posted = new_entry_form_of(game, data={"bidder": "1", "bid": "9999"})
    assert posted.clean() is None
    assert posted.drawn_from == ""
    html = render_parts(request, ["entry"], {**before, "form": posted}).content.decode()
    assert 'value="9999"' in html and "has-error" in html
