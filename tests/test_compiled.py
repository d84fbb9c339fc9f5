"""Statements built once (common.compiled) give and write exactly what the ORM does.

Each read is compared with the same queryset run by the ORM, over games played to random
lengths; each write with the row ``save()`` or ``create()`` leaves.
"""

from __future__ import annotations

import datetime

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.compiled import HOLES, CompiledInsert, CompiledRead, CompiledUpdate, write_together
from scoring.api.auth import table_token_of
from scoring.engines.samples import roolz
from scoring.models import ChangeRequest, Game, Round, RoundEvent
from scoring.services import Actor, game_create, round_record
from scoring.services.frame import LOCKED_GAME, locked

# Statements are built once on PostgreSQL only (elsewhere the ORM runs them as usual).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("postgres")]


def played(rounds: int, confirmation: str = "off") -> Game:
    record = roolz.sample_record(rounds=0, seed=rounds, players=4)
    record["options"] = {**record.get("options", {}), "target": 10**6}
    game = game_create(record=record, confirmation=confirmation).game
    entries = roolz.sample_record(rounds=rounds, seed=rounds, players=4)["rounds"]
    for number, entry in enumerate(entries, start=1):
        round_record(game=game, number=number, entry=entry, actor=Actor(seat=number % 4))
    return game


def as_row(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rounds=st.integers(0, 12), pending=st.booleans())
def test_compiled_reads_give_what_the_orm_gives(rounds, pending):
    game = played(rounds, "other_side" if pending else "off")
    assert table_token_of(game.pk) == Game.objects.get(pk=game.pk).table_token
    with transaction.atomic():
        assert as_row(locked(game.pk)) == as_row(Game.objects.get(pk=game.pk))


def test_a_compiled_read_of_nothing_is_none():
    assert table_token_of(10**9) is None
    with transaction.atomic():
        assert LOCKED_GAME.first(10**9) is None


@pytest.mark.django_db(transaction=True)
def test_a_lock_outside_a_transaction_is_refused_as_the_orm_refuses_it():
    game = played(1)
    with pytest.raises(transaction.TransactionManagementError):
        LOCKED_GAME.first(game.pk)
    with pytest.raises(transaction.TransactionManagementError):
        Game.objects.select_for_update().get(pk=game.pk)


def test_a_read_holding_a_place_twice_or_never_is_refused():
    twice = CompiledRead(
        lambda game_id: Round.objects.filter(game_id=game_id, number=game_id), HOLES[:1]
    )
    with pytest.raises(ValueError, match="each place once"):
        twice.rows(1)
    never = CompiledRead(lambda game_id: Round.objects.filter(game_id=1), HOLES[:1])
    with pytest.raises(ValueError, match="each place once"):
        never.rows(1)


def test_a_compiled_insert_writes_the_row_create_writes():
    game = played(0)
    values = {
        "game": game,
        "round_number": 3,
        "action": "record",
        "seat": 1,
        "device": "d",
        "before": None,
        "after": {"a": [1, "é"]},
    }
    ours = CompiledInsert(RoundEvent).create(**values)
    theirs = RoundEvent.objects.create(**values)
    assert ours.pk is not None and ours.pk != theirs.pk and not ours._state.adding
    read = {e.pk: as_row(e) for e in RoundEvent.objects.filter(pk__in=[ours.pk, theirs.pk])}
    assert read[ours.pk] == as_row(ours)
    mine, other = dict(read[ours.pk]), dict(read[theirs.pk])
    for row in (mine, other):
        row.pop("id"), row.pop("at")
    assert mine == other
    assert abs(read[ours.pk]["at"] - timezone.now()).total_seconds() < 60


def test_a_compiled_update_writes_what_save_writes_and_refuses_a_missing_row():
    game = played(2)
    fields = ["score_cache", "revision", "updated_at"]
    before = game.updated_at
    game.score_cache = {**game.score_cache, "note": "ü"}
    game.revision += 5
    CompiledUpdate(Game, fields).save(game)
    again = Game.objects.get(pk=game.pk)
    assert again.score_cache == game.score_cache and again.revision == game.revision
    assert again.updated_at == game.updated_at and again.updated_at >= before
    gone = Game.objects.get(pk=game.pk)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        CompiledUpdate(Game, fields).save(gone)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def event_values(game: Game, number: int) -> dict:
    return {"game": game, "round_number": number, "action": "record", "seat": 2, "after": {}}


def test_rows_written_together_are_the_rows_written_one_by_one():
    rows = []
    for target, together in ((fresh(played(1)), True), (fresh(played(1)), False)):
        new_round = Round(game=target, number=2, entry={"x": "é"}, status="pending", result=None)
        event = RoundEvent(**event_values(target, 2))
        target.revision += 1
        target.score_cache = {**target.score_cache, "note": [1, None]}
        if together:
            write_together(
                [(CompiledInsert(Round), new_round), (CompiledInsert(RoundEvent), event)],
                CompiledUpdate(Game, ["revision", "score_cache"]),
                target,
            )
        else:
            CompiledInsert(Round).insert(new_round)
            CompiledInsert(RoundEvent).insert(event)
            CompiledUpdate(Game, ["revision", "score_cache"]).save(target)
        assert not new_round._state.adding and not event._state.adding
        read = (
            as_row(Round.objects.get(pk=new_round.pk)),
            as_row(RoundEvent.objects.get(pk=event.pk)),
            as_row(Game.objects.get(pk=target.pk)),
        )
        assert read == (as_row(new_round), as_row(event), as_row(target))
        rows.append(read)
    ignored = {"id", "game_id", "at", "created_at", "updated_at", "table_token", "view_token"}
    together, alone = ([{k: v for k, v in r.items() if k not in ignored} for r in x] for x in rows)
    assert together == alone


def test_rows_written_together_with_a_row_gone_leave_nothing():
    game = played(0)
    gone = Game.objects.get(pk=game.pk)
    Game.objects.filter(pk=game.pk).update(revision=7)
    other = played(0)
    event = RoundEvent(**event_values(other, 1))
    gone.pk = 10**9  # no such game: the update finds no row
    with pytest.raises(DatabaseError, match="did not affect any rows"), transaction.atomic():
        write_together(
            [(CompiledInsert(RoundEvent), event)], CompiledUpdate(Game, ["revision"]), gone
        )
    assert not RoundEvent.objects.filter(game=other, round_number=1, action="record").exists()


@pytest.mark.django_db(transaction=True)
def test_rows_are_written_together_inside_a_transaction_only():
    game = fresh(played(0))
    event = RoundEvent(**event_values(game, 1))
    with pytest.raises(transaction.TransactionManagementError):
        write_together(
            [(CompiledInsert(RoundEvent), event)], CompiledUpdate(Game, ["revision"]), game
        )
    assert not RoundEvent.objects.filter(game=game, round_number=1).exists()


def test_a_statement_run_again_and_again_is_prepared_once():
    """The values go apart from the statement, and one the connection runs often is
    prepared: PostgreSQL holds it by name for that connection."""
    game = played(0)
    for _ in range(6):
        assert table_token_of(game.pk) == game.table_token
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any('"table_token"' in sql and "$1" in sql for sql in prepared), prepared


def test_the_open_change_request_is_the_one_the_orm_finds():
    from scoring.selectors import open_change_request

    game = played(2, "other_side")
    assert open_change_request(game) is None
    ChangeRequest.objects.create(
        game=game, kind="undo", round_number=2, asked_by_seat=0, status="declined"
    )
    opened = ChangeRequest.objects.create(game=game, kind="end", asked_by_seat=1)
    found = open_change_request(game)
    assert found is not None and as_row(found) == as_row(opened) and found.game is game


def test_a_session_is_read_as_the_database_engine_reads_it():
    from django.contrib.sessions.backends.db import SessionStore as DatabaseStore

    from common.sessions import SessionStore

    stored = DatabaseStore()
    stored["tablescore_seats"] = {"7": 2}
    stored.create()
    assert SessionStore(stored.session_key).load() == DatabaseStore(stored.session_key).load()
    assert SessionStore(stored.session_key)["tablescore_seats"] == {"7": 2}
    missing = SessionStore("x" * 32)
    assert missing.load() == {} and missing.session_key is None
    Session = DatabaseStore.get_model_class()
    Session.objects.filter(session_key=stored.session_key).update(
        expire_date=timezone.now() - datetime.timedelta(seconds=1)
    )
    assert SessionStore(stored.session_key).load() == {}  # expired: as if there were none
