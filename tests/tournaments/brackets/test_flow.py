"""Brackets through the services, every result entered as a table game on the phones."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from scoring.models import Game
from scoring.services import Actor, game_end, round_record
from tests.tournaments.helpers import enter_and_confirm
from tournaments.brackets import services as brackets
from tournaments.brackets.selectors import bracket_for
from tournaments.errors import TournamentError
from tournaments.events import selectors, services
from tournaments.models import BracketGame, BracketStage, Event, EventLog
from tournaments.standings import adapter as results

pytestmark = pytest.mark.django_db

# Roller Derby pairs: three deals, then the last deal's tricks decide the game.
DERBY_OPENING = [
    {"dice": [3, 4], "tricks": 7},
    {"dice": [3, 4], "tricks": 9},
    {"dice": [5, 6], "tricks": 6},
]
LAST_DEAL = {"A": 2, "B": 8, "level": 5}  # tricks: team A (seats 1, 3) wins, B wins, level

TEAMS = [
    ("Aces", ["Ann", "Abe"]), ("Bears", ["Ben", "Bo"]), ("Cats", ["Cy", "Cal"]),
    ("Dogs", ["Dan", "Dee"]), ("Elks", ["Eve", "Eli"]), ("Foxes", ["Fay", "Flo"]),
    ("Gulls", ["Gus", "Gil"]), ("Hawks", ["Hal", "Hem"]), ("Ibis", ["Ivy", "Ian"]),
    ("Jays", ["Jo", "Jed"]), ("Kites", ["Kim", "Kit"]), ("Lynx", ["Lou", "Lia"]),
    ("Moles", ["Max", "Mo"]), ("Newts", ["Ned", "Nia"]), ("Owls", ["Oz", "Ola"]),
    ("Pikes", ["Pia", "Pat"]),
]  # fmt: skip


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x")


def play_derby(game: Game, winner: str) -> None:
    deals = [*DERBY_OPENING, {"dice": [1, 1], "tricks": LAST_DEAL[winner]}]
    for number, entry in enumerate(deals, start=1):
        enter_and_confirm(game, number, entry)


def team_at(row: BracketGame, side: str) -> int:
    """The entrant on side A (seat 0) or B (seat 1) of a match game."""
    return row.seats[0 if side == "A" else 1]


def current_rows(stage: BracketStage) -> dict[str, BracketGame]:
    rows: dict[str, BracketGame] = {}
    for row in stage.games.select_related("game").order_by("attempt"):
        rows[row.match] = row
    return rows


def test_swiss_qualifiers_cut_to_8_single_elimination_to_a_champion(
    director, django_capture_on_commit_callbacks
):
    event = services.event_create(
        owner=director, name="Derby Cup", game="roller_derby", format="swiss", rounds_planned=3
    )
    for name, members in TEAMS:
        services.entrant_add(event=event, name=name, members=members, user=director)
    # Qualifying: three swiss rounds, side A wins every table.
    for _ in range(3):
        draft = services.tournament_round_generate(event=event, user=director)
        round_ = services.tournament_round_publish(event=event, round=draft, user=director)
        for table in round_.tables.select_related("game"):
            with django_capture_on_commit_callbacks(execute=True):
                play_derby(table.game, "A")
    standings = [row.entrant for row in results.event_standings(event).rows]
    with pytest.raises(TournamentError) as refused:
        brackets.stage_cut(event=event, size=17, kind="single", user=director)
    assert refused.value.problems[0].field == "cut"

    stage = brackets.stage_cut(event=event, size=8, kind="single", user=director)
    assert stage.seeds == [str(i) for i in standings[:8]]
    assert stage.cut == {"size": 8, "out": standings[8:]}
    # The first round is seated 1 v 8, 4 v 5, 2 v 7, 3 v 6, each with its own table link.
    rows = current_rows(stage)
    assert sorted(rows) == ["R1-1", "R1-2", "R1-3", "R1-4"]
    pairs = {m: (team_at(r, "A"), team_at(r, "B")) for m, r in rows.items()}
    top = standings[:8]
    assert pairs == {
        "R1-1": (top[0], top[7]),
        "R1-2": (top[3], top[4]),
        "R1-3": (top[1], top[6]),
        "R1-4": (top[2], top[5]),
    }
    tokens = {r.game.table_token for r in rows.values()}
    assert len(tokens) == 4 and all(tokens)
    for row in rows.values():
        game = row.game
        assert game.is_tournament_game and game.confirmation == event.confirmation
        members = [s.name for s in game.seats.order_by("number")]
        a, b = (event.entrants.get(pk=team_at(row, side)) for side in "AB")
        assert members == [a.members[0], b.members[0], a.members[1], b.members[1]]

    # The bracket: the lower seed (side B) wins the first round, the higher seed after.
    played: dict[str, int] = {}
    for column, winner in (
        (("R1-1", "R1-2", "R1-3", "R1-4"), "B"),
        (("R2-1", "R2-2"), "A"),
        (("R3-1",), "A"),
    ):
        rows = current_rows(stage)
        assert set(column) <= set(rows)  # every match of this round has its game
        for match in column:
            row = rows[match]
            # Entered but not confirmed yet: nobody advances.
            with django_capture_on_commit_callbacks(execute=True):
                play_derby(row.game, winner)
            played[match] = team_at(row, winner)
        stage.refresh_from_db()
        assert {r["match"] for r in stage.results} >= set(column)
    page = bracket_for(event=event)
    assert page is not None and page.complete
    champion = event.entrants.get(pk=played["R3-1"])
    assert page.champion == champion.name
    assert [p.places for p in page.placements][:2] == ["1", "2"]
    assert len(page.placements) == 8
    # The first round's winners (side B) met in the semifinals.
    semis = current_rows(stage)
    assert {team_at(semis["R2-1"], s) for s in "AB"} == {played["R1-1"], played["R1-2"]}
    assert Game.objects.filter(bracket_game__stage=stage).count() == 7
    assert all(
        g.status == Game.Status.FINISHED for g in Game.objects.filter(bracket_game__stage=stage)
    )
    # One event, one standings page: the bracket games do not count in the qualifying.
    assert [row.entrant for row in results.event_standings(event).rows] == standings
    actions = list(EventLog.objects.filter(event=event).values_list("action", flat=True))
    assert actions.count("bracket_result") == 7 and "bracket_create" in actions


def test_a_result_waits_for_its_confirmation(director, django_capture_on_commit_callbacks):
    event = services.event_create(owner=director, name="Derby", game="roller_derby")
    for name, members in TEAMS[:4]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    stage = brackets.stage_create(event=event, kind="single", user=director)
    row = current_rows(stage)["R1-1"]
    deals = [*DERBY_OPENING, {"dice": [1, 1], "tricks": LAST_DEAL["B"]}]
    with django_capture_on_commit_callbacks(execute=True):
        for number, entry in enumerate(deals[:-1], start=1):
            enter_and_confirm(row.game, number, entry)
        round_record(game=row.game, number=4, entry=deals[-1], actor=Actor(seat=0, device="p"))
    row.game.refresh_from_db()
    assert row.game.status == Game.Status.FINISHED
    stage.refresh_from_db()
    assert stage.results == []  # finished, but the last deal is not confirmed yet
    assert "R2-1" not in current_rows(stage)


# --------------------------------------------------------------------------- Rummoli


def finish_rummoli(game: Game, order: list[int]) -> None:
    """One hand in which ``order[0]`` goes out and the others hold more cards the lower
    they finish; the leftovers go to the one who went out. Seats are 0-based."""
    size = game.seats.count()
    cards = [0] * size
    for place, seat in enumerate(order):
        cards[seat] = place  # 0 for who went out, then 1, 2, ...
    entry = {"went_out": order[0], "cards_left": cards}
    enter_and_confirm(game, 1, entry)
    game_end(game=game, ending={"end": {"leftovers_to": order[0]}}, actor=Actor(seat=0, device="p"))


def test_rummoli_table_knockout_of_24_to_a_final_table_of_6(
    director, django_capture_on_commit_callbacks
):
    event = services.event_create(owner=director, name="Rummoli Night", game="rummoli")
    names = [f"Player {n:02d}" for n in range(1, 25)]
    services.entrants_import_csv(event=event, text="\n".join(names), user=director)
    stage = brackets.stage_create(
        event=event, kind="tables", table_size=6, advance=3, draw_rule="higher_seed", user=director
    )
    seen_columns = []
    for _ in range(4):
        rows = {
            m: r for m, r in current_rows(stage).items() if r.game.status != Game.Status.FINISHED
        }
        if not rows:
            break
        seen_columns.append(sorted((m, len(r.seats)) for m, r in rows.items()))
        for row in rows.values():
            # The last seat goes out first, so seeds do not simply hold.
            order = list(range(len(row.seats)))[::-1]
            with django_capture_on_commit_callbacks(execute=True):
                finish_rummoli(row.game, order)
    assert seen_columns == [
        [("R1-T1", 6), ("R1-T2", 6), ("R1-T3", 6), ("R1-T4", 6)],
        [("R2-T1", 6), ("R2-T2", 6)],
        [("R3-T1", 6)],
    ]
    page = bracket_for(event=event)
    assert page is not None and page.complete
    final = current_rows(stage)["R3-T1"]
    final_names = [s.name for s in final.game.seats.order_by("number")]
    assert page.champion == final_names[-1]  # the last seat went out first
    assert [p.name for p in page.placements[:6]] == final_names[::-1]
    # Everyone at the final table came through the top 3 of a table of round 2.
    stage.refresh_from_db()
    second = [r for r in stage.results if r["match"].startswith("R2-")]
    through = {g[0] for r in second for g in r["finish"][:3]}
    assert {str(i) for i in final.seats} == through
    # The ones knocked out in round 1 share places 13-24.
    assert sum(1 for p in page.placements if p.places == "13-24") == 12
    assert len(page.placements) == 24


# --------------------------------------------------------------------------- draw rule


@pytest.mark.parametrize("rule", ["higher_seed", "replay"])
def test_a_level_two_team_table_is_settled_by_the_rule_set_before(
    director, django_capture_on_commit_callbacks, rule
):
    event = services.event_create(owner=director, name="Derby", game="roller_derby")
    for name, members in TEAMS[:4]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    stage = brackets.stage_create(event=event, kind="single", draw_rule=rule, user=director)
    assert stage.draw_rule == rule
    first = current_rows(stage)["R1-1"]  # seed 1 (Aces) v seed 4 (Dogs)
    aces, dogs = event.entrants.get(name="Aces"), event.entrants.get(name="Dogs")
    assert (team_at(first, "A"), team_at(first, "B")) == (aces.pk, dogs.pk)
    with django_capture_on_commit_callbacks(execute=True):
        play_derby(first.game, "level")
    first.game.refresh_from_db()
    assert first.game.score_cache["winners"] == [0, 1, 2, 3]  # level: everyone "won"
    stage.refresh_from_db()
    rows = current_rows(stage)
    if rule == "higher_seed":
        # The better seed goes through; the level result stays recorded as it was.
        [level] = stage.results[0]["finish"]
        assert sorted(level) == sorted([str(aces.pk), str(dogs.pk)])
        page = bracket_for(event=event)
        assert page is not None
        final = page.sections[0].columns[-1].matches[0]
        assert final.seats[0].label == "Aces"
        assert rows["R1-1"].attempt == 1
    else:
        # The table plays again: a second game for the same match, nobody advanced.
        assert stage.results == []
        replay = rows["R1-1"]
        assert replay.attempt == 2 and replay.game_id != first.game_id
        assert replay.game.table_token != first.game.table_token
        with django_capture_on_commit_callbacks(execute=True):
            play_derby(replay.game, "B")
        stage.refresh_from_db()
        assert stage.results == [{"match": "R1-1", "finish": [[str(dogs.pk)], [str(aces.pk)]]}]
        assert "bracket_replay" in EventLog.objects.filter(event=event).values_list(
            "action", flat=True
        )


# --------------------------------------------------------------------------- override


def test_override_advances_the_directors_choice_and_is_audited(
    director, django_capture_on_commit_callbacks
):
    event = services.event_create(owner=director, name="Derby", game="roller_derby")
    for name, members in TEAMS[:4]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    stage = brackets.stage_create(event=event, kind="single", user=director)
    row = current_rows(stage)["R1-2"]  # seed 2 (Bears) v seed 3 (Cats)
    bears, cats = event.entrants.get(name="Bears"), event.entrants.get(name="Cats")
    with django_capture_on_commit_callbacks(execute=True):
        play_derby(row.game, "A")  # Bears win at the table
    with pytest.raises(TournamentError) as refused:
        brackets.bracket_override(
            event=event, match="R1-2", finish=[cats.pk, bears.pk], reason=" ", user=director
        )
    assert refused.value.problems[0].field == "reason"
    # Bears played with a substitute not allowed: Cats go through instead.
    brackets.bracket_override(
        event=event,
        match="R1-2",
        finish=[cats.pk, bears.pk],
        reason="Bears fielded an unregistered player",
        user=director,
    )
    log = EventLog.objects.filter(event=event, action="bracket_override").get()
    assert log.user == director
    assert log.before["finish"] == [str(bears.pk), str(cats.pk)]
    assert log.after == {
        "match": "R1-2",
        "finish": [str(cats.pk), str(bears.pk)],
        "reason": "Bears fielded an unregistered player",
    }
    page = bracket_for(event=event)
    assert page is not None
    match = next(m for c in page.sections[0].columns for m in c.matches if m.id == "R1-2")
    assert match.overridden and match.reason == "Bears fielded an unregistered player"
    final = page.sections[0].columns[-1].matches[0]
    assert final.seats[1].label == "Cats"
    # The table's own result stays recorded next to the override.
    stage.refresh_from_db()
    assert stage.results == [{"match": "R1-2", "finish": [[str(bears.pk)], [str(cats.pk)]]}]
    # Once the final has been played with that outcome, the override cannot change.
    r11 = current_rows(stage)["R1-1"]
    with django_capture_on_commit_callbacks(execute=True):
        play_derby(r11.game, "A")
    final_row = current_rows(stage)["R2-1"]
    assert team_at(final_row, "B") == cats.pk
    with django_capture_on_commit_callbacks(execute=True):
        play_derby(final_row.game, "B")
    with pytest.raises(TournamentError):
        brackets.bracket_override(
            event=event, match="R1-2", finish=[bears.pk, cats.pk], reason="changed mind"
        )
    assert Event.objects.get(pk=event.pk).bracket_stage.event_id == event.pk
    assert bracket_for(event=event).champion == "Cats"  # type: ignore[union-attr]


def test_bad_requests_name_their_field(director):
    event = services.event_create(owner=director, name="Derby", game="roller_derby")
    for name, members in TEAMS[:3]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    with pytest.raises(TournamentError) as error:
        brackets.stage_create(event=event, kind="tables", user=director)
    assert error.value.problems[0].field == "kind"
    with pytest.raises(TournamentError) as error:
        brackets.stage_create(event=event, kind="single", draw_rule="coin", user=director)
    assert error.value.problems[0].field == "draw_rule"
    with pytest.raises(TournamentError) as error:
        brackets.stage_create(
            event=event, kind="single", seeding="manual", order=[1], user=director
        )
    assert error.value.problems[0].field == "order"
    with pytest.raises(TournamentError) as error:
        brackets.stage_cut(event=event, size=2, kind="single", user=director)
    assert error.value.problems[0].field == "cut"
    assert selectors.standings_for(event=event) is not None
