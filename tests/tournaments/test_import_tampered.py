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


def same_name_but_accents(doc: dict) -> None:
    name = doc["entrants"][0]["name"]
    doc["entrants"][1]["name"] = name[0] + "\u0301" + name[1:].upper()


def same_name_but_a_zero_width_space(doc: dict) -> None:
    doc["entrants"][1]["name"] = doc["entrants"][0]["name"] + "\u200b"


def others_play_the_table(doc: dict) -> None:
    players = doc["rounds"][0]["tables"][0]["game"]["players"]
    players[:] = ["X", "Y", "Z", "W", "V", "U"][: len(players)]


def players_in_another_order(doc: dict) -> None:
    players = doc["rounds"][0]["tables"][0]["game"]["players"]
    players[0], players[1] = players[1], players[0]


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
    ("negative entrant", set_in([*T1S0, "entrant"], -1), "rounds[0].tables[1].seats[0].entrant", "should be 0 or more"),
    ("entrant as a string", set_in([*T1S0, "entrant"], "0"), "rounds[0].tables[1].seats[0].entrant", "whole number"),
    ("bye of no entrant", set_in(["rounds", 0, "byes"], [999]), "rounds[0].byes[0]", "no entrant"),
    ("bye of a seated entrant", bye_of_a_seated, "rounds[0].byes[0]", "already seated"),
    ("duplicate round numbers", set_in(["rounds", 1, "number"], 1), "rounds[1].number", "expected 2"),
    ("a gap in round numbers", set_in(["rounds", 1, "number"], 3), "rounds[1].number", "expected 2"),
    ("round number 0", set_in(["rounds", 0, "number"], 0), "rounds[0].number", "should be 1 or more"),
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
    ("right-to-left override in a name", set_in(["entrants", 0, "name"], "Ann\u202e"), "entrants[0].name", "invisible character (U+202E)"),
    ("zero-width space making two names look alike", same_name_but_a_zero_width_space, "entrants[1].name", "invisible character (U+200B)"),
    ("a bidi isolate in the event name", set_in(["event", "name"], "Club \u2066night"), "event.name", "invisible character (U+2066)"),
    ("a zero-width joiner in a member's name", set_in(["entrants", 0, "members"], ["A\u200db", "Bo"]), "entrants[0].members[0]", "invisible character (U+200D)"),
    ("a right-to-left override in a game's player", set_in([*T0, "game", "players", 0], "A\u202e"), "rounds[0].tables[0].game.players", "invisible character (U+202E)"),
    ("names alike but for accents", same_name_but_accents, "entrants[1].name", "already registered"),
    ("a table's game played by others than those seated", others_play_the_table, "rounds[0].tables[0].game.players[0]", "but the game names X"),
    ("a table's players in another order than its seats", players_in_another_order, "rounds[0].tables[0].game.players[0]", "but the game names"),
    ("a team of one", set_in(["entrants", 0, "members"], ["Solo"]), "entrants[0].members", "two members"),
    ("a team of eleven", set_in(["entrants", 0, "members"], [f"M{i}" for i in range(11)]), "entrants[0].members", "more than 10 items"),
    ("a string where the entrants belong", set_in(["entrants"], "Ann,Ben"), "entrants", "list"),
    ("a string where the rounds belong", set_in(["rounds"], "1,2"), "rounds", "list"),
    ("a string where the tables belong", set_in(["rounds", 0, "tables"], "abc"), "rounds[0].tables", "list"),
    ("a string where the seats belong", set_in([*T0, "seats"], "0,1"), "rounds[0].tables[0].seats", "list"),
    ("deep nesting in a report", set_in(["rounds", 0, "report"], nested(200)), "rounds[0].report.x", DEEP),
    ("very deep nesting in the options", set_in(["event", "options"], nested(100_000)), "event.options.x", DEEP),
    ("a number as text", set_in(["event", "rounds_planned"], "3"), "event.rounds_planned", "whole number"),
    ("true for a number", set_in([*T0, "number"], True), "rounds[0].tables[0].number", "whole number"),
    ("a fraction for a number", set_in(["rounds", 0, "number"], 1.0), "rounds[0].number", "whole number"),
    ("a huge number", set_in(["event", "seed"], 10**30), "event.seed", "too large"),
    ("an unknown key", unknown_key, "entrants[0].colour", "not a key this document has"),
    ("a missing key", drop_key(["rounds", 0, "tables"]), "rounds[0].tables", "is missing"),
    ("an unknown game", set_in(["event", "game"], "chess"), "event.game", "one of"),
    ("an unknown event status", set_in(["event", "status"], "hacked"), "event.status", "should be one of 'registration'"),
    ("an unknown option", set_in(["event", "options"], {"colour": 1}), "event.options", "unknown option"),
    ("a table playing another game", set_in([*T0, "game", "game"], "rummoli"), "rounds[0].tables[0].game.game", "plays roolz"),
    ("a game short of a player", one_player_short, "rounds[0].tables[0].game.players", "players for"),
    ("a deal the rules refuse", set_in([*T0, "game", "rounds", 0, "bid"], 172), "rounds[0].tables[0].game", "deal 1"),
    ("a member who is not in the team", set_in([*T0, "seats", 0, "member"], 3), "rounds[0].tables[0].seats[0].member", "no member"),
    ("keep-apart with nobody", set_in(["keep_apart"], [[0, 999]]), "keep_apart[0][1]", "no entrant"),
    ("keep-apart with oneself", set_in(["keep_apart"], [[0, 0]]), "keep_apart[0]", "themselves"),
    ("a draft before a published round", set_in(["rounds", 0, "status"], "draft"), "rounds[0].status", "last round"),
    ("a published table without its game", set_in([*T0, "game"], None), "rounds[0].tables[0].game", "needs its game"),
    ("thirteen at a table", set_in([*T0, "seats"], [{"entrant": i} for i in range(13)]), "rounds[0].tables[0].seats", "more than 12 items"),
    ("a nested object in a report", set_in(["rounds", 0, "report", "cost"], {"a": 1}), "rounds[0].report.cost", "not a value this field takes"),
    ("an absence of no entrant", set_in(["rounds", 0, "absences"], [{"entrant": 999}]), "rounds[0].absences[0].entrant", "no entrant"),
    ("an absence of a seated entrant", absent_but_seated, "rounds[0].absences[0].entrant", "already placed"),
    ("an absence for an unknown reason", set_in(["rounds", 0, "absences"], [{"entrant": 0, "reason": "ill"}]), "rounds[0].absences[0].reason", "should be one of"),
    ("an unknown away scoring", set_in(["event", "away_scoring"], "half"), "event.away_scoring", "should be one of"),
    ("another format", set_in(["format"], "tablescore-event/9"), "format", "should be one of"),
]  # fmt: skip


def counts() -> tuple[int, ...]:
    return (
        Event.objects.count(),
        Entrant.objects.count(),
        Table.objects.count(),
        Game.objects.count(),
        EventLog.objects.count(),
    )


def test_at_least_44_kinds_of_tampering_are_covered():
    assert len(TAMPERED) >= 44
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
        ("[" * 100_000 + "]" * 100_000, "nests deeper than"),
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


def rename(doc: dict, index: int, name: str) -> None:
    """Entrant ``index`` renamed, at the tables' games too (their players are the seated)."""
    doc["entrants"][index]["name"] = name
    for round_ in doc["rounds"]:
        for table in round_["tables"]:
            for seat, placed in enumerate(table["seats"]):
                if placed["entrant"] == index and table.get("game"):
                    table["game"]["players"][seat] = name


def odd_but_valid(doc: dict) -> None:
    """Everything the schema allows at its edges: long unicode names, a team, byes."""
    doc["event"]["name"] = "É" * 80
    rename(doc, 0, "=cmd|' /C calc'!A0")
    rename(doc, 1, "\u05d0\u05d1 " + "ß" * 30)
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


# --------------------------------------------------------------------------- every way in
# The same table of tampered documents through the command and the desk's web import: each
# refused cleanly, naming its path (or, past the reader's own limits, why the file cannot
# be read), and nothing written.


class _Raw(str):
    """Text written as it is by ``as_text``."""


def as_text(value) -> str:
    """``value`` as JSON text, however deep it nests (json.dumps stops at Python's stack)."""
    parts: list[str] = []
    stack: list = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Raw):
            parts.append(item)
        elif isinstance(item, dict | list):
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            sequence: list = [_Raw("{" if isinstance(item, dict) else "[")]
            for i, (key, inner) in enumerate(pairs):
                if i:
                    sequence.append(_Raw(","))
                if isinstance(item, dict):
                    sequence.append(_Raw(json.dumps(key) + ":"))
                sequence.append(inner)
            sequence.append(_Raw("}" if isinstance(item, dict) else "]"))
            stack.extend(reversed(sequence))
        else:
            parts.append(json.dumps(item))
    return "".join(parts)


def refused_as(message: str, path: str, word: str) -> bool:
    return (path in message and word in message) or (
        word == DEEP and "nests deeper than" in message
    )


@pytest.mark.parametrize(("what", "change", "path", "word"), TAMPERED, ids=[t[0] for t in TAMPERED])
def test_the_command_refuses_each_tampered_document(
    director, exported, monkeypatch, what, change, path, word
):
    document = copy.deepcopy(exported)
    change(document)
    before = counts()
    monkeypatch.setattr("sys.stdin", io.StringIO(as_text(document)))
    with pytest.raises(CommandError) as refused:
        call_command("importtournament", "-", "--owner", "director")
    assert refused_as(str(refused.value), path, word), str(refused.value)
    assert counts() == before


def upload(client, content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    file = SimpleUploadedFile("event.json", content, content_type="application/json")
    return client.post(reverse("tournaments:event_import"), {"file": file})


@pytest.mark.parametrize(("what", "change", "path", "word"), TAMPERED, ids=[t[0] for t in TAMPERED])
def test_the_web_import_refuses_each_tampered_document(
    client, director, exported, what, change, path, word
):
    from django.utils.html import escape

    document = copy.deepcopy(exported)
    change(document)
    client.force_login(director)
    before = counts()
    answer = upload(client, as_text(document).encode())
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "Nothing was imported" in html
    # Each problem is one item, its path first (its first letter a capital).
    shown = [
        item for item in html.split("<li>")[1:] if refused_as(item, escape(path[1:]), escape(word))
    ]
    assert shown or (word == DEEP and "nests deeper than" in html), html[-3000:]
    assert counts() == before


# Files no reader should choke on, the same through the command and both web imports.
UNREADABLE = [
    ("an array nested 950 deep", ("[" * 950 + "]" * 950).encode(), "nests deeper than"),
    ("an object nested 100,000 deep", ('{"a":' * 100_000 + "1" + "}" * 100_000).encode(), "nests deeper than"),
    ("NaN", b'{"format": "tablescore-event/1", "x": NaN}', "NaN"),
    ("Infinity", b'{"format": "tablescore-event/1", "x": -Infinity}', "Infinity"),
    ("a 5000-digit number", b'{"format": "tablescore-event/1", "x": 1' + b"0" * 5000 + b"}", "number too long"),
    ("a lone surrogate", b'{"format": "tablescore-event/1", "x": "\\ud800"}', "not valid text"),
    ("not UTF-8", b'{"format": "\xff\xfe"}', "not UTF-8"),
    ("not JSON", b"{nope", "is not JSON"),
    ("empty", b"   ", "is empty"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "content", "said"), UNREADABLE, ids=[u[0] for u in UNREADABLE])
def test_an_unreadable_file_is_refused_cleanly_every_way_in(
    client, director, tmp_path, what, content, said
):
    before = counts()
    file = tmp_path / "event.json"
    file.write_bytes(content)
    with pytest.raises(CommandError) as refused:
        call_command("importtournament", str(file), "--owner", "director")
    assert said in str(refused.value)
    client.force_login(director)
    answer = upload(client, content)
    assert answer.status_code == 200 and said in answer.content.decode()
    from django.core.files.uploadedfile import SimpleUploadedFile

    roster = SimpleUploadedFile("club.json", content, content_type="application/json")
    answer = client.post(reverse("club:roster_json_import"), {"file": roster})
    assert answer.status_code == 200 and said in answer.content.decode()
    assert counts() == before


ROSTER_NAMES = [
    ("a right-to-left override", "Ann\u202eXX", "U+202E"),
    ("a zero-width space", "Ann\u200b", "U+200B"),
    ("a control character", "Ann\x07", "control"),
]


@pytest.mark.parametrize(("what", "name", "said"), ROSTER_NAMES, ids=[r[0] for r in ROSTER_NAMES])
def test_the_club_import_refuses_the_names_the_desk_refuses(client, director, what, name, said):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tournaments.models import Player

    document = {"format": "tablescore-roster/1", "players": [{"name": "Ann"}, {"name": name}]}
    client.force_login(director)
    file = SimpleUploadedFile("club.json", json.dumps(document).encode())
    answer = client.post(reverse("club:roster_json_import"), {"file": file})
    assert answer.status_code == 200 and said in answer.content.decode()
    assert not Player.objects.exists()
    # The desk refuses the same name, with the same words.
    with pytest.raises(services.TournamentError) as refused:
        event = services.event_create(owner=director, name="Night", game="roolz")
        services.entrant_add(event=event, name=name, user=director)
    assert said in str(refused.value)
