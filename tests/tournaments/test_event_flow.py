"""A whole event through the services, as a director and the tables would run it."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest
from django.contrib.auth import get_user_model

from scoring.models import Game, RoundEvent
from tests.tournaments.helpers import ROOLZ_OPTIONS, enter_and_confirm, play_table
from tournaments import hooks
from tournaments.events import selectors, services
from tournaments.models import Event, EventLog, TableSeat, TournamentRound

pytestmark = pytest.mark.django_db

NAMES = [
    "Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy",
    "Jo", "Kim", "Lou", "Max", "Ned", "Óscar", "Pia", "Quy", "Rex",
]  # fmt: skip

# Placement points by table size and seat, for the deals the tables play (helpers.DEALS):
# a table of 4 is two teams (sides of 2 -> the 2-side scale 7, 1), seats 0 and 2 win;
# a table of 3 finishes seat 0, 1, 2 in that order (scale 7, 4, 1).
HAND_POINTS = {4: (7, 1, 7, 1), 3: (7, 4, 1)}


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x")


def roolz_event(director, **extra) -> Event:
    settings = {"name": "Friday Roolz", "game": "roolz", "options": ROOLZ_OPTIONS}
    return services.event_create(owner=director, **{**settings, **extra})


def publish_next(event: Event, director) -> TournamentRound:
    draft = services.tournament_round_generate(event=event, user=director)
    return services.tournament_round_publish(event=event, round=draft, user=director)


def test_eighteen_players_three_rounds_of_roolz(director, django_capture_on_commit_callbacks):
    event = roolz_event(director)
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    expected: Counter[int] = Counter()
    firsts: Counter[int] = Counter()
    met: defaultdict[int, set[int]] = defaultdict(set)
    for number in (1, 2, 3):
        round_ = publish_next(event, director)
        assert round_.number == number
        sizes = sorted(t.game.seats.count() for t in round_.tables.all())
        assert sizes == [3, 3, 4, 4, 4]  # 18 players: three tables of 4, two of 3
        assert round_.byes.count() == 0
        for table in round_.tables.select_related("game"):
            seats = list(TableSeat.objects.filter(table=table).order_by("seat"))
            # The game holds the players in seat order, as a tournament game.
            assert [s.name for s in table.game.seats.order_by("number")] == [
                s.entrant.name for s in seats
            ]
            assert table.game.is_tournament_game
            assert table.game.confirmation == "other_side"
            for seat in seats:
                expected[seat.entrant_id] += HAND_POINTS[len(seats)][seat.seat]
                firsts[seat.entrant_id] += HAND_POINTS[len(seats)][seat.seat] == 7
                met[seat.entrant_id] |= {s.entrant_id for s in seats} - {seat.entrant_id}
            revision = Event.objects.get(pk=event.pk).revision
            with django_capture_on_commit_callbacks(execute=True):
                play_table(table)
            # The hook told the event: players' pages refresh.
            assert Event.objects.get(pk=event.pk).revision > revision
        assert {t.state for t in selectors.tables_live(event=event)} == {selectors.DONE}

    view = selectors.standings_for(event=event)
    assert view.metrics[0] == "placement_points"
    by_id = {row.entrant_id: row for row in view.rows}
    assert len(by_id) == 18
    for entrant_id, points in expected.items():
        assert by_id[entrant_id].values[0] == pytest.approx(points)
        assert by_id[entrant_id].played == 3
        assert by_id[entrant_id].values[view.metrics.index("firsts")] == firsts[entrant_id]
    ranked = [row.values[0] for row in view.rows]
    assert ranked == sorted(ranked, reverse=True)
    # Mixing: with 18 players, three rounds leave most players meeting new faces.
    assert sum(len(v) for v in met.values()) / 18 > 6

    services.event_close(event=event, user=director)
    event.refresh_from_db()
    assert event.status == Event.Status.CLOSED
    actions = list(EventLog.objects.filter(event=event).values_list("action", flat=True))
    assert actions[:2] == ["event_create", "entrants_import_csv"]
    assert actions.count("round_publish") == 3 and actions[-1] == "event_close"


def test_draw_and_where_do_i_sit(director):
    event = roolz_event(director)
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    publish_next(event, director)
    draw = selectors.draw_for(event=event)
    assert draw is not None and draw.published and draw.round_number == 1
    names = sorted(seat.name for table in draw.tables for seat in table.seats)
    assert names == sorted(NAMES)
    for table in draw.tables:
        assert table.table_token
        assert table.seats[table.first_dealer - 1].name == table.first_dealer_name
        if len(table.seats) == 4:
            assert [s.team for s in table.seats] == ["A", "B", "A", "B"]
    # Case and accents ignored.
    found = selectors.seat_find(event=event, query="  OSCAR ")
    assert [f.name for f in found] == ["Óscar"]
    table = next(t for t in draw.tables if any(s.name == "Óscar" for s in t.seats))
    assert found[0].table == table.number
    assert selectors.seat_find(event=event, query="zzz") == []
    page = selectors.entrant_page(event=event, entrant=event.entrants.get(name="Óscar"))
    assert page.next_table is not None and page.next_table.table == table.number


def test_first_dealer_rotates_fairly(director):
    event = roolz_event(director, rounds_planned=4)
    services.entrants_import_csv(event=event, text="\n".join(NAMES[:8]), user=director)
    dealt: Counter[str] = Counter()
    for _ in range(4):
        round_ = publish_next(event, director)
        for table in round_.tables.select_related("game"):
            names = [s.name for s in table.game.seats.order_by("number")]
            first = names[table.game.first_dealer]
            # Nobody deals first again while a table-mate has dealt first less often.
            assert dealt[first] == min(dealt[n] for n in names)
            dealt[first] += 1
            play_table(table)
    assert sum(dealt.values()) == 8 and max(dealt.values()) <= 2


def test_drops_and_late_entries(director):
    event = roolz_event(director)
    services.entrants_import_csv(event=event, text="\n".join(NAMES[:8]), user=director)
    first = publish_next(event, director)
    for table in first.tables.all():
        play_table(table)
    gone = event.entrants.get(name="Ann")
    services.entrant_drop(event=event, entrant=gone, user=director)
    late = services.entrant_add_late(event=event, name="Zoe", user=director)
    with pytest.raises(services.TournamentError) as refused:
        services.entrant_add(event=event, name="Yan", user=director)
    assert refused.value.problems[0].field == "name"
    second = publish_next(event, director)
    seated = set(TableSeat.objects.filter(table__round=second).values_list("entrant_id", flat=True))
    byes = set(second.byes.values_list("entrant_id", flat=True))
    assert gone.pk not in seated | byes
    assert late.pk in seated | byes
    assert len(seated) + len(byes) == 8
    for table in second.tables.all():
        play_table(table)
    rows = {row.name: row for row in selectors.standings_for(event=event).rows}
    assert rows["Ann"].played == 1 and rows["Ann"].dropped
    assert rows["Zoe"].played + rows["Zoe"].byes == 1


def test_byes_go_to_different_players(director):
    # Roolz is played by 2 to 6: 7 players at tables of 4 only leave one out.
    event = roolz_event(director, table_size=4, rounds_planned=2)
    services.entrants_import_csv(event=event, text="\n".join(NAMES[:7]), user=director)
    byes = []
    for _ in range(2):
        round_ = publish_next(event, director)
        byes += list(round_.byes.values_list("entrant_id", flat=True))
        for table in round_.tables.all():
            play_table(table)
    assert len(byes) == 6 or len(set(byes)) == len(byes)
    rows = selectors.standings_for(event=event).rows
    assert sum(row.byes for row in rows) == len(byes)


def test_swap_then_publish(director):
    event = roolz_event(director, rounds_planned=2)
    services.entrants_import_csv(event=event, text="\n".join(NAMES[:8]), user=director)
    first = publish_next(event, director)
    for table in first.tables.all():
        play_table(table)
    draft = services.tournament_round_generate(event=event, user=director)
    draw = selectors.draw_for(event=event, round=draft)
    assert draw is not None and not draw.published
    a = draw.tables[0].seats[0]
    b = draw.tables[1].seats[0]
    result = services.tournament_round_swap(
        event=event,
        round=draft,
        first=event.entrants.get(pk=a.entrant_id),
        second=event.entrants.get(pk=b.entrant_id),
        user=director,
    )
    assert result.before["cost"] == draft.report["cost"]
    assert result.after["method"] == f"{draft.report['method']}, then swapped by the director"
    assert result.cost_change == result.after["cost"] - result.before["cost"]
    swapped = selectors.draw_for(event=event, round=draft)
    assert swapped.tables[0].seats[0].entrant_id == b.entrant_id
    assert swapped.tables[1].seats[0].entrant_id == a.entrant_id
    services.tournament_round_publish(event=event, round=draft, user=director)
    live = selectors.draw_for(event=event)
    assert live.round_number == 2
    assert live.tables[0].seats[0].name == b.name


def test_undo_a_round_before_any_result(director):
    event = roolz_event(director)
    services.entrants_import_csv(event=event, text="\n".join(NAMES[:8]), user=director)
    round_ = publish_next(event, director)
    games = list(round_.tables.values_list("game_id", flat=True))
    services.tournament_round_undo(event=event, round=round_, user=director)
    round_.refresh_from_db()
    assert round_.status == TournamentRound.Status.DRAFT
    assert not Game.objects.filter(pk__in=games).exists()
    assert selectors.draw_for(event=event) is None
    services.tournament_round_publish(event=event, round=round_, user=director)
    table = round_.tables.first()
    enter_and_confirm(table.game, 1, {"bidder": 0, "bid": 170, "won": {"A": 200, "B": 100}})
    with pytest.raises(services.TournamentError) as refused:
        services.tournament_round_undo(event=event, round=round_, user=director)
    assert f"table {table.number}" in str(refused.value)
    assert Game.objects.filter(pk=table.game_id).exists()


def test_director_corrects_a_result(director):
    event = roolz_event(director, rounds_planned=1)
    services.entrants_import_csv(event=event, text="\n".join(NAMES[:4]), user=director)
    round_ = publish_next(event, director)
    table = round_.tables.get()
    play_table(table)
    before = {row.name: row.values[0] for row in selectors.standings_for(event=event).rows}
    # Deal 2 was mis-entered: team B won it, 250 to 50, ending the game 300 to 450... no:
    # A 200 + 50 = 250, B 100 + 250 = 350, so B reaches the target and wins.
    services.result_correct(
        event=event,
        table=table,
        number=2,
        entry={"bidder": 1, "bid": 170, "won": {"A": 50, "B": 250}},
        user=director,
        reason="deal 2 was mis-entered",
    )
    after = {row.name: row.values[0] for row in selectors.standings_for(event=event).rows}
    seats = list(TableSeat.objects.filter(table=table).order_by("seat"))
    for seat in seats:
        assert before[seat.entrant.name] == (7 if seat.seat in (0, 2) else 1)
        assert after[seat.entrant.name] == (1 if seat.seat in (0, 2) else 7)
    assert EventLog.objects.filter(event=event, action="result_correct").count() == 1
    audit = RoundEvent.objects.filter(game=table.game, action=RoundEvent.Action.CORRECT).get()
    assert audit.user == director and audit.round_number == 2
    assert selectors.tables_live(event=event)[0].state == selectors.DONE


CSV_CASES = [
    ("Ann\n\nBen\n# a comment\nCat,Cy,Cal\n", ["Ann", "Ben", "Cat"], None),
    ("Ann\nann\n", None, ["line 2: ann is repeated in the file (lines 1 and 2)"]),
    ("Ann\n,Bob,Bo\nBen,Solo\n", None, [
        "line 2: the name is empty",
        "line 3: a team has at least two members",
    ]),
    ("Ann\n" + "x" * 41 + "\n", None, ["line 2: the name is at most 40 characters"]),
    ("\n\n", None, ["the file holds no names"]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "names", "errors"), CSV_CASES)
def test_csv_import_names_each_bad_line(director, text, names, errors):
    event = roolz_event(director)
    if errors is None:
        created = services.entrants_import_csv(event=event, text=text, user=director)
        assert [e.name for e in created] == names
        assert event.entrants.get(name="Cat").members == ["Cy", "Cal"]
        return
    with pytest.raises(services.TournamentError) as refused:
        services.entrants_import_csv(event=event, text=text, user=director)
    assert [p.message for p in refused.value.problems] == errors
    assert event.entrants.count() == 0  # all or nothing


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"name": " "}, "name"),
        ({"game": "chess"}, "game"),
        ({"options": {"target": 5}}, "options.target"),
        ({"options": {"nonsense": 1}}, "options"),
        ({"table_size": 9}, "table_size"),
        ({"rounds_planned": 0}, "rounds_planned"),
        ({"standings_metrics": ["luck"]}, "standings_metrics"),
        ({"format": "knockout"}, "format"),
    ],
)
def test_event_settings_name_the_field(director, settings, field):
    with pytest.raises(services.TournamentError) as refused:
        roolz_event(director, **settings)
    assert field in [p.field for p in refused.value.problems]


def _keep_apart_event(director, rounds: int):
    event = roolz_event(director, rounds_planned=rounds)
    services.entrants_import_csv(event=event, text="\n".join(NAMES[:12]), user=director)
    ann, ben = event.entrants.get(name="Ann"), event.entrants.get(name="Ben")
    services.keep_apart_add(event=event, first=ann, second=ben, user=director)
    together = []
    for _ in range(rounds):
        round_ = publish_next(event, director)
        broken = 0
        for table in round_.tables.all():
            ids = set(table.seats.values_list("entrant_id", flat=True))
            broken += {ann.pk, ben.pk} <= ids
            play_table(table)
        assert round_.report["keep_apart_broken"] == broken  # the report tells the truth
        together.append(broken)
    return together


def test_keeping_apart_or_swapping_without_two_players_names_the_missing_field(director):
    event = roolz_event(director)
    services.entrants_import_csv(event=event, text="\n".join(NAMES[:8]), user=director)
    ann = event.entrants.get(name="Ann")
    with pytest.raises(services.TournamentError) as refused:
        services.keep_apart_add(event=event, first=None, second=ann, user=director)
    assert [p.field for p in refused.value.problems] == ["first"]
    draft = services.tournament_round_generate(event=event, user=director)
    with pytest.raises(services.TournamentError) as refused:
        services.tournament_round_swap(event=event, round=draft, first=None, second=None)
    assert [p.field for p in refused.value.problems] == ["first", "second"]


def test_keep_apart_is_honoured_in_every_round(director):
    assert _keep_apart_event(director, 3) == [0, 0, 0]


def test_the_demo_event_loads_once_with_two_tables_played(capsys):
    from django.core.management import call_command

    get_user_model().objects.create_user("director", is_staff=True)
    call_command("demoevent", "--base-url", "http://127.0.0.1:8123")
    call_command("demoevent")
    out = capsys.readouterr().out
    event = Event.objects.get()
    assert f"http://127.0.0.1:8123/e/{event.public_token}/" in out
    finished = [t for t in event.rounds.get().tables.all() if t.game.status == "finished"]
    assert len(finished) == 2
    assert len(event.entrants.all()) == 16


def test_a_table_game_changing_refreshes_its_own_event_and_no_other(director):
    events = [roolz_event(director, name=f"Night {n}") for n in (1, 2)]
    games = []
    for event in events:
        services.entrants_import_csv(event=event, text="\n".join(NAMES[:8]), user=director)
        games.append(publish_next(event, director).tables.order_by("number").first().game)
    before = {e.pk: Event.objects.get(pk=e.pk).revision for e in events}
    hooks.table_game_changed(game_id=games[0].pk)
    hooks.table_game_changed(game_id=games[0].pk)
    after = {e.pk: Event.objects.get(pk=e.pk).revision for e in events}
    assert after[events[0].pk] == before[events[0].pk] + 2
    assert after[events[1].pk] == before[events[1].pk]
