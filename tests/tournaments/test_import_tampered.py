# ruff: noqa: E501  (the table of tampered documents reads best one line each)
"""Tampered event documents: each refused whole, with the path of what is wrong, and
nothing written; what is accepted never makes a page answer 500."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Game
from tests.tournaments.test_export_import import played_event
from tournaments.events import services
from tournaments.models import Entrant, Event, EventLog, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="pw", is_staff=True)


class _Undo(Exception):
    pass


@pytest.fixture(scope="module")
def exported_once(django_db_setup, django_db_blocker) -> dict:
    """One played event's document, built once and rolled back (it is plain JSON)."""
    document: dict = {}
    with django_db_blocker.unblock():
        try:
            with transaction.atomic():
                owner = get_user_model().objects.create_user("someone")
                document.update(services.event_export(event=played_event(owner)))
                raise _Undo
        except _Undo:
            pass
    return document


@pytest.fixture
def exported(exported_once) -> dict:
    return copy.deepcopy(exported_once)


def nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth):
        value = {"x": value}
    return value


def set_in(path: list, value) -> Callable[[dict], None]:
    def change(doc: dict) -> None:
        target = doc
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value

    return change


def seat_twice(doc: dict) -> None:
    first = doc["rounds"][0]["tables"][0]["seats"][0]["entrant"]
    doc["rounds"][0]["tables"][1]["seats"][0]["entrant"] = first


def bye_of_a_seated(doc: dict) -> None:
    doc["rounds"][0]["byes"] = [doc["rounds"][0]["tables"][0]["seats"][0]["entrant"]]


def absent_but_seated(doc: dict) -> None:
    seated = doc["rounds"][0]["tables"][0]["seats"][0]["entrant"]
    doc["rounds"][0]["absences"] = [{"entrant": seated, "reason": "away"}]


def same_table_number(doc: dict) -> None:
    tables = doc["rounds"][0]["tables"]
    tables[1]["number"] = tables[0]["number"]


def same_name(doc: dict) -> None:
    doc["entrants"][1]["name"] = doc["entrants"][0]["name"]


def same_name_folded(doc: dict) -> None:
    doc["entrants"][1]["name"] = "  " + doc["entrants"][0]["name"].upper() + " "


def one_player_short(doc: dict) -> None:
    doc["rounds"][0]["tables"][0]["game"]["players"].pop()


def drop_key(path: list) -> Callable[[dict], None]:
    def change(doc: dict) -> None:
        target = doc
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]

    return change


def unknown_key(doc: dict) -> None:
    doc["entrants"][0]["colour"] = "red"


T0 = ["rounds", 0, "tables", 0]
T1S0 = ["rounds", 0, "tables", 1, "seats", 0]
DEEP = "nests deeper"

# (what was tampered, the change, the path named, a word of the message)
TAMPERED: list[tuple[str, Callable[[dict], None], str, str]] = [
    ("entrant seated twice in a round", seat_twice, "rounds[0].tables[1].seats[0].entrant", "already seated"),
    ("seat pointing at no entrant", set_in([*T1S0, "entrant"], 999), "rounds[0].tables[1].seats[0].entrant", "no entrant"),
    ("negative entrant", set_in([*T1S0, "entrant"], -1), "rounds[0].tables[1].seats[0].entrant", "greater than"),
    ("entrant as a string", set_in([*T1S0, "entrant"], "0"), "rounds[0].tables[1].seats[0].entrant", "integer"),
    ("bye of no entrant", set_in(["rounds", 0, "byes"], [999]), "rounds[0].byes[0]", "no entrant"),
    ("bye of a seated entrant", bye_of_a_seated, "rounds[0].byes[0]", "already seated"),
    ("duplicate round numbers", set_in(["rounds", 1, "number"], 1), "rounds[1].number", "expected 2"),
    ("a gap in round numbers", set_in(["rounds", 1, "number"], 3), "rounds[1].number", "expected 2"),
    ("round number 0", set_in(["rounds", 0, "number"], 0), "rounds[0].number", "greater than"),
    ("duplicate table numbers", same_table_number, "rounds[0].tables[1].number", "twice"),
    ("duplicate entrant names", same_name, "entrants[1].name", "already registered"),
    ("names alike but for case and spaces", same_name_folded, "entrants[1].name", "already registered"),
    ("name past the limit", set_in(["entrants", 0, "name"], "A" * 41), "entrants[0].name", "40"),
    ("event name past the limit", set_in(["event", "name"], "E" * 81), "event.name", "80"),
    ("empty name", set_in(["entrants", 0, "name"], "   "), "entrants[0].name", "empty"),
    ("NUL in a name", set_in(["entrants", 0, "name"], "Ann\x00"), "entrants[0].name", "NUL"),
    ("NUL in the event name", set_in(["event", "name"], "Club\x00night"), "event.name", "NUL"),
    ("NUL in a game's player", set_in([*T0, "game", "players", 0], "A\x00"), "rounds[0].tables[0].game.players[0]", "NUL"),
    ("control character in a name", set_in(["entrants", 0, "name"], "Ann\x07"), "entrants[0].name", "control"),
    ("a team of one", set_in(["entrants", 0, "members"], ["Solo"]), "entrants[0].members", "two members"),
    ("a team of eleven", set_in(["entrants", 0, "members"], [f"M{i}" for i in range(11)]), "entrants[0].members", "at most 10"),
    ("a string where the entrants belong", set_in(["entrants"], "Ann,Ben"), "entrants", "list"),
    ("a string where the rounds belong", set_in(["rounds"], "1,2"), "rounds", "list"),
    ("a string where the tables belong", set_in(["rounds", 0, "tables"], "abc"), "rounds[0].tables", "list"),
    ("a string where the seats belong", set_in([*T0, "seats"], "0,1"), "rounds[0].tables[0].seats", "list"),
    ("deep nesting in a report", set_in(["rounds", 0, "report"], nested(200)), "rounds[0].report.x", DEEP),
    ("very deep nesting in the options", set_in(["event", "options"], nested(100_000)), "event.options.x", DEEP),
    ("a number as text", set_in(["event", "rounds_planned"], "3"), "event.rounds_planned", "integer"),
    ("true for a number", set_in([*T0, "number"], True), "rounds[0].tables[0].number", "integer"),
    ("a fraction for a number", set_in(["rounds", 0, "number"], 1.0), "rounds[0].number", "integer"),
    ("a huge number", set_in(["event", "seed"], 10**30), "event.seed", "too large"),
    ("an unknown key", unknown_key, "entrants[0].colour", "Extra inputs"),
    ("a missing key", drop_key(["rounds", 0, "tables"]), "rounds[0].tables", "required"),
    ("an unknown game", set_in(["event", "game"], "chess"), "event.game", "one of"),
    ("an unknown event status", set_in(["event", "status"], "hacked"), "event.status", "Input should be"),
    ("an unknown option", set_in(["event", "options"], {"colour": 1}), "event.options", "unknown option"),
    ("a table playing another game", set_in([*T0, "game", "game"], "rummoli"), "rounds[0].tables[0].game.game", "plays roolz"),
    ("a game short of a player", one_player_short, "rounds[0].tables[0].game.players", "players for"),
    ("a deal the rules refuse", set_in([*T0, "game", "rounds", 0, "bid"], 172), "rounds[0].tables[0].game", "deal 1"),
    ("a member who is not in the team", set_in([*T0, "seats", 0, "member"], 3), "rounds[0].tables[0].seats[0].member", "no member"),
    ("keep-apart with nobody", set_in(["keep_apart"], [[0, 999]]), "keep_apart[0][1]", "no entrant"),
    ("keep-apart with oneself", set_in(["keep_apart"], [[0, 0]]), "keep_apart[0]", "themselves"),
    ("a draft before a published round", set_in(["rounds", 0, "status"], "draft"), "rounds[0].status", "last round"),
    ("a published table without its game", set_in([*T0, "game"], None), "rounds[0].tables[0].game", "needs its game"),
    ("thirteen at a table", set_in([*T0, "seats"], [{"entrant": i} for i in range(13)]), "rounds[0].tables[0].seats", "at most 12"),
    ("a nested object in a report", set_in(["rounds", 0, "report", "cost"], {"a": 1}), "rounds[0].report.cost", "Input should be"),
    ("an absence of no entrant", set_in(["rounds", 0, "absences"], [{"entrant": 999}]), "rounds[0].absences[0].entrant", "no entrant"),
    ("an absence of a seated entrant", absent_but_seated, "rounds[0].absences[0].entrant", "already placed"),
    ("an absence for an unknown reason", set_in(["rounds", 0, "absences"], [{"entrant": 0, "reason": "ill"}]), "rounds[0].absences[0].reason", "Input should be"),
    ("an unknown away scoring", set_in(["event", "away_scoring"], "half"), "event.away_scoring", "Input should be"),
    ("another format", set_in(["format"], "tablescore-event/9"), "format", "Input should be"),
]  # fmt: skip


def counts() -> tuple[int, ...]:
    return (
        Event.objects.count(),
        Entrant.objects.count(),
        Table.objects.count(),
        Game.objects.count(),
        EventLog.objects.count(),
    )


def test_at_least_36_kinds_of_tampering_are_covered():
    assert len(TAMPERED) >= 36
    assert len({what for what, *_ in TAMPERED}) == len(TAMPERED)


@pytest.mark.parametrize(("what", "change", "path", "word"), TAMPERED, ids=[t[0] for t in TAMPERED])
def test_a_tampered_document_is_refused_with_its_path_and_nothing_is_written(
    director, exported, what, change, path, word
):
    document = copy.deepcopy(exported)
    change(document)
    before = counts()
    with pytest.raises(services.TournamentError) as refused:
        services.event_import(data=document, owner=director)
    named = [(p.field or "", p.message) for p in refused.value.problems]
    assert any(field.startswith(path) and word in message for field, message in named), named
    assert counts() == before
    # The check alone, as a page previewing an upload would call it, says the same.
    with pytest.raises(services.TournamentError):
        services.event_import_check(data=document)


def test_the_untampered_document_is_accepted(director, exported):
    event = services.event_import(data=copy.deepcopy(exported), owner=director)
    assert event.rounds.count() == len(exported["rounds"])


def test_a_problem_in_a_round_names_that_round(director, exported):
    document = copy.deepcopy(exported)
    seat_twice(document)
    with pytest.raises(services.TournamentError) as refused:
        services.event_import(data=document, owner=director)
    assert refused.value.problems[0].round == 1


def test_every_problem_is_named_at_once(director, exported):
    document = copy.deepcopy(exported)
    seat_twice(document)
    same_name(document)
    set_in(["keep_apart"], [[0, 0]])(document)
    with pytest.raises(services.TournamentError) as refused:
        services.event_import(data=document, owner=director)
    fields = {p.field for p in refused.value.problems}
    assert {"entrants[1].name", "keep_apart[0]", "rounds[0].tables[1].seats[0].entrant"} <= fields


# --------------------------------------------------------------------------- the command


def import_text(text: str) -> str:
    with pytest.raises(CommandError) as refused:
        call_command("importtournament", "-", "--owner", "director", stdin=io.StringIO(text))
    return str(refused.value)


def test_the_command_prints_each_path_and_writes_nothing(director, exported, monkeypatch):
    document = copy.deepcopy(exported)
    seat_twice(document)
    before = counts()
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(document)))
    with pytest.raises(CommandError) as refused:
        call_command("importtournament", "-", "--owner", "director")
    assert "rounds[0].tables[1].seats[0].entrant: " in str(refused.value)
    assert "nothing was written" in str(refused.value)
    assert counts() == before


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[" * 100_000 + "]" * 100_000, "nests too deeply"),
        ("{not json", "cannot read"),
        ('"just a string"', "not a tablescore-event/1 document"),
        ('{"format": "tablescore-event/1", "event": {"name": "a\\u0000"}}', "NUL"),
    ],
)
def test_the_command_refuses_unreadable_files_cleanly(director, monkeypatch, text, said):
    before = counts()
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    with pytest.raises(CommandError) as refused:
        call_command("importtournament", "-", "--owner", "director")
    assert said in str(refused.value)
    assert counts() == before


# --------------------------------------------------------------------------- what is accepted


def odd_but_valid(doc: dict) -> None:
    """Everything the schema allows at its edges: long unicode names, a team, byes."""
    doc["event"]["name"] = "É" * 80
    doc["entrants"][0]["name"] = "=cmd|' /C calc'!A0"
    doc["entrants"][1]["name"] = "\u05d0\u05d1 " + "ß" * 30
    doc["entrants"][2]["fixed_table"] = 32767
    doc["rounds"][0]["report"] = {"method": "<script>alert(1)</script>", "cost": -1}


def test_an_accepted_document_never_makes_a_page_answer_500(client, director, exported):
    document = copy.deepcopy(exported)
    odd_but_valid(document)
    event = services.event_import(data=document, owner=director)
    client.force_login(director)
    token = event.public_token
    entrant = event.entrants.first()
    table = Table.objects.filter(round__event=event).exclude(game=None).first()
    pages = [
        reverse("tournaments:draw", args=[token]),
        reverse("tournaments:standings", args=[token]),
        reverse("tournaments:projector", args=[token]),
        reverse("tournaments:entrant", args=[token, entrant.pk]),
        reverse("tournaments:desk_event", args=[event.pk]),
        reverse("tournaments:desk_round", args=[event.pk, 1]),
        reverse("tournaments:desk_round", args=[event.pk, 3]),
        reverse("tournaments:desk_table", args=[event.pk, table.pk]),
        reverse("tournaments:standings_csv", args=[event.pk]),
        reverse("tournaments:event_json", args=[event.pk]),
    ]
    for page in pages:
        assert client.get(page).status_code == 200, page
    assert "<script>alert(1)</script>" not in client.get(pages[5]).content.decode()


# --------------------------------------------------------------------------- any tampering

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=45),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def every_path(value, where=()):
    yield where
    if isinstance(value, dict):
        for key, item in value.items():
            yield from every_path(item, (*where, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from every_path(item, (*where, index))


def pages_of(event) -> list[str]:
    token = event.public_token
    pages = [
        reverse("tournaments:draw", args=[token]),
        reverse("tournaments:standings", args=[token]),
        reverse("tournaments:projector", args=[token]),
        reverse("tournaments:desk_event", args=[event.pk]),
        reverse("tournaments:standings_csv", args=[event.pk]),
        reverse("tournaments:event_json", args=[event.pk]),
    ]
    pages += [reverse("tournaments:entrant", args=[token, e.pk]) for e in event.entrants.all()[:3]]
    pages += [
        reverse("tournaments:desk_round", args=[event.pk, r.number]) for r in event.rounds.all()
    ]
    return pages


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_tampering_is_refused_with_paths_or_serves_every_page(
    client, director, exported_once, data
):
    document = copy.deepcopy(exported_once)
    path = data.draw(st.sampled_from(list(every_path(document))[1:]))
    set_in(list(path), data.draw(JSON))(document)
    before = counts()
    try:
        event = services.event_import(data=document, owner=director)
    except services.TournamentError as refused:
        assert refused.problems
        assert all(p.field for p in refused.problems), refused.problems
        assert counts() == before
        return
    client.force_login(director)
    for page in pages_of(event):
        assert client.get(page).status_code == 200, (path, page)
