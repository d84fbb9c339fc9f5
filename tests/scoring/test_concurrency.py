"""Many phones at once: one round per number, conflicts for the rest, retries stored once.

Runs on whatever database the suite uses (PostgreSQL in CI); when that is
PostgreSQL, the SQLite default is checked as well in a child run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from scoring.models import IdempotentRequest, Round, RoundEvent
from scoring.selectors import game_record, game_score_data
from tests.scoring.factories import ROOLZ_FOUR, new_game, roolz_round

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = 8
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def patient_connections():
    """Up to 50 phones open a connection in the same instant; on a machine busy with the
    rest of the suite PostgreSQL forks their backends slower than the web server's 2 s
    connect deadline allows. The races are about what is stored, not about how fast a
    connection opens: every thread's connection waits up to 30 s here."""
    if connection.vendor != "postgresql":
        yield
        return
    options = connection.settings_dict.setdefault("OPTIONS", {})
    before = options.get("connect_timeout")
    options["connect_timeout"] = 30
    yield
    if before is None:
        options.pop("connect_timeout", None)
    else:
        options["connect_timeout"] = before


def post_at_once(game, bodies_and_keys):
    """Post every (body, key) from its own thread, released together; return the responses."""
    barrier = threading.Barrier(len(bodies_and_keys))
    responses: list = [None] * len(bodies_and_keys)
    errors: list = []

    def phone(index, body, key):
        try:
            client = Client()
            headers = {"HTTP_AUTHORIZATION": f"Bearer {game.table_token}"}
            if key:
                headers["HTTP_IDEMPOTENCY_KEY"] = key
            barrier.wait(timeout=10)
            responses[index] = client.post(
                f"/api/games/{game.pk}/rounds/",
                json.dumps(body),
                content_type="application/json",
                **headers,
            )
        except Exception as error:  # reported below: a thread must not fail silently
            errors.append(error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=phone, args=(i, body, key))
        for i, (body, key) in enumerate(bodies_and_keys)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return responses


def test_same_round_number_from_many_phones_stores_exactly_one():
    game = new_game()
    bodies = [
        ({"number": 1, "round": roolz_round(a=150 + 5 * i)}, f"key-{i}") for i in range(PHONES)
    ]
    responses = post_at_once(game, bodies)
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [201] + [409] * (PHONES - 1), [r.content for r in responses]
    stored = Round.objects.get(game=game)
    winner = next(r for r in responses if r.status_code == 201)
    for response in responses:
        if response.status_code == 409:
            assert response.json()["recorded"]["round"] == stored.entry
    assert winner.json()["round"]["number"] == 1
    assert RoundEvent.objects.filter(game=game, action="record").count() == 1


def test_retries_of_one_request_store_it_once_and_agree():
    game = new_game()
    body = {"number": 1, "round": roolz_round(a=210)}
    responses = post_at_once(game, [(body, "same-key")] * PHONES)
    assert {r.status_code for r in responses} == {201}
    assert len({json.dumps(r.json(), sort_keys=True) for r in responses}) == 1
    assert Round.objects.filter(game=game).count() == 1
    assert IdempotentRequest.objects.filter(game=game).count() == 1


def test_different_rounds_in_a_race_each_land_in_order():
    game = new_game()
    # Phones race for rounds 1 and 2: round 2 can only land after round 1 exists.
    bodies = [({"number": 1, "round": roolz_round(a=200)}, "r1")] + [
        ({"number": 2, "round": roolz_round(bidder=1, a=100)}, f"r2-{i}") for i in range(3)
    ]
    responses = post_at_once(game, bodies)
    assert responses[0].status_code == 201
    assert all(r.status_code in {201, 400, 409} for r in responses[1:])
    numbers = list(Round.objects.filter(game=game).values_list("number", flat=True))
    assert numbers in ([1], [1, 2])
    assert sum(r.status_code == 201 for r in responses[1:]) == len(numbers) - 1


def test_the_database_refuses_a_second_round_with_the_same_number():
    from django.db import IntegrityError, transaction

    game = new_game()
    Round.objects.create(game=game, number=1, entry={}, status="confirmed")
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(game=game, number=1, entry={}, status="confirmed")


def test_concurrency_holds_on_the_sqlite_default_too(settings, tmp_path):
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        pytest.skip("this run is on SQLite already")
    # The child runs on SQLite: the PostgreSQL-only races there skip rather than fail.
    dropped = {"DATABASE_URL", "PYTEST_ADDOPTS", "REQUIRE_SERVICES"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env["SQLITE_PATH"] = str(tmp_path / "test-db.sqlite3")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:randomly",
            __file__,
            "-k",
            "not sqlite_default",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "4 passed" in done.stdout


@pytest.mark.parametrize("phones", [2, 5, 10, 25, 50])
def test_many_phones_racing_for_each_round_of_one_game_store_exactly_one(postgres, phones):
    """On PostgreSQL: 2 to 50 phones post the same round at once, round after round."""
    record = {**ROOLZ_FOUR, "options": {"target": 10**6}}
    game = new_game(record)
    repeats = 6 if phones <= 10 else 3
    for number in range(1, repeats + 1):
        bodies = [
            (
                {"number": number, "round": roolz_round(bidder=number % 4, a=150 + 5 * (i % 30))},
                f"r{number}-{i}",
            )
            for i in range(phones)
        ]
        responses = post_at_once(game, bodies)
        statuses = sorted(r.status_code for r in responses)
        assert statuses == [201] + [409] * (phones - 1), (number, statuses)
        stored = Round.objects.get(game=game, number=number)
        winner = next(r for r in responses if r.status_code == 201)
        assert winner.json()["round"]["number"] == number
        for response in responses:
            if response.status_code == 409:
                assert response.json()["recorded"]["round"] == stored.entry
    assert Round.objects.filter(game=game).count() == repeats
    assert RoundEvent.objects.filter(game=game, action="record").count() == repeats
    game.refresh_from_db()
    assert game_score_data(game) == game.engine.score(game_record(game)).as_dict()


def undo_beside_next_rounds(game, undone: int, following: int, phones: int = 3) -> list[int]:
    """One phone undoes round ``undone`` while ``phones`` others post round ``following``,
    released together; the answers' statuses."""
    barrier = threading.Barrier(phones + 1)
    statuses: list[int] = []

    def phone(index: int) -> None:
        try:
            client = Client(HTTP_AUTHORIZATION=f"Bearer {game.table_token}")
            barrier.wait(timeout=10)
            if index == 0:
                answer = client.delete(
                    f"/api/games/{game.pk}/rounds/{undone}/",
                    {"revision": game.revision},
                    "application/json",
                )
            else:
                body = {"number": following, "round": roolz_round(bidder=index % 4, a=160)}
                answer = client.post(f"/api/games/{game.pk}/rounds/", body, "application/json")
            statuses.append(answer.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(phones + 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses


def test_an_undo_racing_the_next_rounds_leaves_no_gap(postgres):
    """On PostgreSQL: the last round undone while phones post the one after it. Whichever
    comes first, the rounds stay numbered 1, 2, ... without a gap, and the game knows its
    last one."""
    game = new_game({**ROOLZ_FOUR, "options": {"target": 10**6}})
    client = Client(HTTP_AUTHORIZATION=f"Bearer {game.table_token}")
    for attempt in range(6):
        last = game.rounds.count()
        for number in (last + 1, last + 2):
            body = {"number": number, "round": roolz_round(bidder=number % 4)}
            posted = client.post(f"/api/games/{game.pk}/rounds/", body, "application/json")
            assert posted.status_code == 201, posted.content
        game.refresh_from_db()
        statuses = undo_beside_next_rounds(game, undone=last + 2, following=last + 3)
        assert len(statuses) == 4 and set(statuses) <= {200, 201, 400, 409}, statuses
        numbers = list(game.rounds.order_by("number").values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1)), (attempt, statuses, numbers)
        game.refresh_from_db()
        assert game.last_round_number == len(numbers)
