"""Club nights through the services: players recognised, ratings moving with results,
corrections re-rating, and a rebuild from nothing equal to what was built game by game."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from scoring.models import Game
from scoring.services import Actor, round_undo
from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.club import services as club
from tournaments.club.selectors import roster_export
from tournaments.events import services
from tournaments.models import (
    EntrantPlayer,
    Event,
    Player,
    RatedGame,
    RatingStep,
    TableSeat,
    TournamentRound,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Łukasz"]


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x")


def night(director, name: str, season=None, names=NAMES) -> Event:
    event = services.event_create(
        owner=director, name=name, game="roolz", options=ROOLZ_OPTIONS, rounds_planned=2
    )
    services.entrants_import_csv(event=event, text="\n".join(names), user=director)
    club.club_night_set(event=event, season=season, rated=True, user=director)
    return event


def play_round(event: Event, director, capture) -> TournamentRound:
    draft = services.tournament_round_generate(event=event, user=director)
    round_ = services.tournament_round_publish(event=event, round=draft, user=director)
    for table in round_.tables.select_related("game"):
        with capture(execute=True):
            play_table(table)
    return round_


def snapshot(roster) -> dict[int, tuple[float | None, float | None, int]]:
    return {p.pk: (p.mu, p.sigma, p.rated_games) for p in Player.objects.filter(roster=roster)}


def steps(roster) -> list[tuple[int, int, float, float]]:
    return list(
        RatingStep.objects.filter(rated_game__roster=roster).values_list(
            "rated_game__game_id", "player_id", "mu", "sigma"
        )
    )


def test_ratings_follow_results_corrections_and_undos(director, django_capture_on_commit_callbacks):
    roster = club.roster_for(owner=director)
    lukasz = club.player_create(roster=roster, name="lukasz", user=director)
    event = night(director, "Week 1")
    # "Łukasz" is the "lukasz" already on the roster; the others are new players.
    link = EntrantPlayer.objects.get(entrant__event=event, entrant__name="Łukasz")
    assert link.player == lukasz
    assert Player.objects.filter(roster=roster).count() == len(NAMES)

    round_ = play_round(event, director, django_capture_on_commit_callbacks)
    tables = list(round_.tables.select_related("game"))
    assert RatedGame.objects.filter(roster=roster).count() == len(tables)
    for table in tables:
        seats = list(TableSeat.objects.filter(table=table).order_by("seat"))
        winner = Player.objects.get(entries__entrant=seats[0].entrant)
        loser = Player.objects.get(entries__entrant=seats[-1].entrant)
        assert winner.mu > 25 > loser.mu  # seat 0's side wins every table (helpers.DEALS)
        assert winner.rated_games == 1
    play_round(event, director, django_capture_on_commit_callbacks)
    built = snapshot(roster)
    built_steps = steps(roster)

    # Running the task again changes nothing (idempotent).
    for table in tables:
        assert club.ratings_game_changed(game_id=table.game_id) == "unchanged"
    assert snapshot(roster) == built

    call_command("ratings", "--recompute")
    assert snapshot(roster) == built
    assert steps(roster) == built_steps

    # A correction in round 1 turns a table of four around: re-rated from that game on.
    four = next(t for t in tables if t.game.seats.count() == 4)
    with django_capture_on_commit_callbacks(execute=True):
        services.result_correct(
            event=event,
            table=four,
            number=1,
            entry={"bidder": 1, "bid": 170, "won": {"A": 50, "B": 250}},
            user=director,
            reason="team B won deal 1",
        )
    corrected = snapshot(roster)
    assert corrected != built
    seats = list(TableSeat.objects.filter(table=four).order_by("seat"))
    first_b = Player.objects.get(entries__entrant=seats[1].entrant)
    first_steps = RatingStep.objects.filter(rated_game__game=four.game, player=first_b)
    assert first_steps.get().mu > first_steps.get().mu_before  # side B now won
    call_command("ratings", "--recompute")
    assert snapshot(roster) == corrected

    # Undoing the last deal of a finished table: it no longer counts, re-rated again.
    game = Game.objects.get(pk=four.game_id)
    with django_capture_on_commit_callbacks(execute=True):
        round_undo(
            game=game, number=None, actor=Actor(seat=0, device="desk", user=director, desk=True)
        )
    assert not RatedGame.objects.filter(game=game).exists()
    undone = snapshot(roster)
    call_command("ratings", "--recompute")
    assert snapshot(roster) == undone


def test_a_merge_brings_the_history_along(director, django_capture_on_commit_callbacks):
    roster = club.roster_for(owner=director)
    week1 = night(director, "Week 1", names=["Ann", "Ben", "Cat", "Dan"])
    play_round(week1, director, django_capture_on_commit_callbacks)
    # A week later Ann is typed "Anne": a new player the director then merges.
    week2 = night(director, "Week 2", names=["Anne", "Ben", "Cat", "Dan"])
    play_round(week2, director, django_capture_on_commit_callbacks)
    ann = Player.objects.get(roster=roster, name="Ann")
    anne = Player.objects.get(roster=roster, name="Anne")
    assert ann.rated_games == 1 and anne.rated_games == 1
    kept = club.player_merge(keep=ann, duplicate=anne, user=director)
    assert kept.rated_games == 2
    anne.refresh_from_db()
    assert anne.merged_into == ann and anne.rated_games == 0
    assert EntrantPlayer.objects.filter(player=anne).count() == 0
    merged = snapshot(roster)
    call_command("ratings", "--recompute")
    assert snapshot(roster) == merged


def test_import_matches_folded_names_and_asks_when_ambiguous(director):
    roster = club.roster_for(owner=director)
    club.player_create(roster=roster, name="Łukasz")
    one = club.player_create(roster=roster, name="Sam Lee")
    two = club.player_create(roster=roster, name="sam lee", allow_same=True)
    text = "name,contact\nLUKASZ\nSam Lee,sam@example.org\nZoë\nzoe\n"
    asked = club.roster_import(roster=roster, text=text)
    assert [m.line for m in asked.ambiguous] == [3]
    assert {p.pk for p in asked.ambiguous[0].players} == {one.pk, two.pk}
    assert Player.objects.filter(roster=roster).count() == 3  # nothing written yet
    done = club.roster_import(roster=roster, text=text, choices={3: str(two.pk)})
    assert [p.name for p in done.created] == ["Zoë"]  # "zoe" is the same new player
    assert {p.name for p in done.found} >= {"Łukasz", "sam lee"}
    with pytest.raises(club.ClubError) as error:
        club.roster_import(roster=roster, text="\n" + "x" * 50 + "\n")
    assert error.value.problems[0].field == "line 2"


def test_export_and_import_carry_the_roster_seasons_and_ratings(
    director, django_capture_on_commit_callbacks
):
    roster = club.roster_for(owner=director)
    season = club.season_create(
        roster=roster, name="Spring", rule={"counting": "drop_worst", "drop": 1}
    )
    event = night(director, "Week 1", season=season)
    play_round(event, director, django_capture_on_commit_callbacks)
    document = services.event_export(event=event)
    roster_document = roster_export(roster=roster)
    before = {p.name: (p.mu, p.sigma) for p in Player.objects.filter(roster=roster)}

    # Another director's server: the roster first (ratings become starting points) ...
    other = get_user_model().objects.create_user("other", password="x")
    theirs = club.roster_for(owner=other)
    club.roster_import_json(roster=theirs, data=roster_document)
    assert {p.name: (p.mu, p.sigma) for p in Player.objects.filter(roster=theirs)} == before
    spring = theirs.seasons.get(name="Spring")
    assert (spring.counting, spring.drop) == ("drop_worst", 1)
    # ... then the event: a night of that season, each entrant the same player.
    with django_capture_on_commit_callbacks(execute=True):
        copy = services.event_import(data=document, owner=other)
    assert copy.club_night.season == spring
    assert EntrantPlayer.objects.filter(entrant__event=copy).count() == len(NAMES)
    assert Player.objects.filter(roster=theirs).count() == len(NAMES)
    # Its games are rated again, on top of the ratings brought in.
    assert RatedGame.objects.filter(roster=theirs).count() == event.rounds.get().tables.count()
    built = snapshot(theirs)
    call_command("ratings", "--recompute")
    assert snapshot(theirs) == built

    with pytest.raises(club.ClubError) as error:
        club.roster_import_json(
            roster=theirs,
            data={**roster_document, "players": [{"name": "X", "rating": {"mu": "a"}}]},
        )
    assert error.value.problems[0].field == "player 1"


def all_steps(roster) -> list[tuple[int, int, int, float, float, float, float]]:
    return list(
        RatingStep.objects.filter(rated_game__roster=roster).values_list(
            "pk", "rated_game__game_id", "player_id", "mu_before", "sigma_before", "mu", "sigma"
        )
    )


def test_a_rebuild_rewrites_the_steps_in_place_and_equals_one_from_nothing(
    director, django_capture_on_commit_callbacks
):
    roster = club.roster_for(owner=director)
    event = night(director, "Week 1")
    play_round(event, director, django_capture_on_commit_callbacks)
    play_round(event, director, django_capture_on_commit_callbacks)
    built = all_steps(roster)
    # Every player now starts from a rating brought in: every step's numbers move.
    Player.objects.filter(roster=roster).update(base_mu=30.0, base_sigma=6.0)
    club.ratings_recompute(roster=roster, from_games=False)
    moved = all_steps(roster)
    assert [s[1:3] for s in moved] == [s[1:3] for s in built]  # the same games and players
    if connection.vendor == "postgresql":  # there rewritten in place (elsewhere replaced)
        assert [s[0] for s in moved] == [s[0] for s in built]
    assert all(new[3:] != old[3:] for new, old in zip(moved, built, strict=True))
    players = snapshot(roster)
    # The same history rebuilt with no step stored at all: the same numbers, in order.
    RatingStep.objects.filter(rated_game__roster=roster).delete()
    club.ratings_recompute(roster=roster, from_games=False)
    assert [s[1:] for s in all_steps(roster)] == [s[1:] for s in moved]
    assert snapshot(roster) == players


def test_a_rebuild_mends_a_history_out_of_step(director, django_capture_on_commit_callbacks):
    roster = club.roster_for(owner=director)
    event = night(director, "Week 1")
    play_round(event, director, django_capture_on_commit_callbacks)
    play_round(event, director, django_capture_on_commit_callbacks)
    built = [s[1:] for s in all_steps(roster)]
    players = snapshot(roster)
    steps_now = list(RatingStep.objects.filter(rated_game__roster=roster))
    # A step lost, one with wrong numbers, and one for a player who was not at that table.
    steps_now[0].delete()
    RatingStep.objects.filter(pk=steps_now[1].pk).update(mu=1.0)
    game = RatedGame.objects.filter(roster=roster).first()
    outsider = Player.objects.filter(roster=roster).exclude(
        pk__in=[p for side in game.sides for p in side]
    )[0]
    RatingStep.objects.create(
        rated_game=game, player=outsider, mu_before=1, sigma_before=1, mu=2, sigma=1
    )
    Player.objects.filter(roster=roster).update(mu=None, sigma=None, rated_games=0)
    club.ratings_recompute(roster=roster, from_games=False)
    assert [s[1:] for s in all_steps(roster)] == built
    assert snapshot(roster) == players


def test_a_rename_refuses_a_merged_duplicate_and_changes_nothing_for_the_same_name(director):
    from tournaments.models import RosterLog

    roster = club.roster_for(owner=director)
    ann = club.player_create(roster=roster, name="Ann")
    anne = club.player_create(roster=roster, name="Anne")
    club.player_merge(keep=ann, duplicate=anne, user=director)
    lines = RosterLog.objects.count()
    with pytest.raises(club.ClubError) as error:
        club.player_rename(player=anne, name="Annie", user=director)
    assert error.value.problems[0].field == "name"
    assert club.player_rename(player=ann, name=" Ann ", user=director).name == "Ann"
    assert RosterLog.objects.count() == lines
    # A new case of the same letters is a rename (the folded name stays).
    renamed = club.player_rename(player=ann, name="ANN", user=director)
    assert (renamed.name, renamed.folded) == ("ANN", "ann")
    assert RosterLog.objects.count() == lines + 1
