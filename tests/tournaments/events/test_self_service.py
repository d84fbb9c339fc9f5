"""What a player does from their own link (check in, drop out), the desk's side of it,
whose link a token is, and a seat held by a link at the table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import RoundEvent
from scoring.selectors import game_score, side_in_round
from scoring.services import Actor, GameChangeError, round_confirm, round_record, seat_hold
from tests.tournaments.helpers import DEALS, ROOLZ_OPTIONS, play_table
from tournaments.events import me_selectors, services
from tournaments.events.availability import availability_for
from tournaments.models import (
    ClubNight,
    Entrant,
    EntrantPlayer,
    Event,
    EventLog,
    Player,
    Roster,
    TableSeat,
)
from tournaments.models.tokens import new_private_token

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x")


@pytest.fixture
def event(director) -> Event:
    event = services.event_create(
        owner=director, name="Friday", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    return event


def entrant(event: Event, name: str) -> Entrant:
    return event.entrants.get(name=name)


def open_check_in(event: Event, director) -> Event:
    return services.event_self_service_set(event=event, self_check_in="open", user=director)


def publish_next(event: Event, director):
    draft = services.tournament_round_generate(event=event, user=director)
    return services.tournament_round_publish(event=event, round=draft, user=director)


def problem_fields(error: services.TournamentError) -> set[str | None]:
    return {p.field for p in error.problems}


# --------------------------------------------------------------------------- check-in


def test_a_player_checks_in_only_while_check_in_is_open(event, director):
    ann = entrant(event, "Ann")
    with pytest.raises(services.TournamentError) as refused:
        services.entrant_self_check_in(entrant=ann)
    assert problem_fields(refused.value) == {"checked_in"}
    open_check_in(event, director)
    services.entrant_self_check_in(entrant=ann)
    ann.refresh_from_db()
    assert ann.checked_in
    line = EventLog.objects.filter(event=event, action="entrant_self_check_in").get()
    assert line.user is None and line.after == {"id": ann.pk, "checked_in": True, "by": "own link"}


def test_the_availability_rule_is_unchanged_only_those_present_are_seated(event, director):
    open_check_in(event, director)
    present = NAMES[:4]
    for name in present:
        services.entrant_self_check_in(entrant=entrant(event, name))
    event.refresh_from_db()
    nxt = availability_for(event, number=1)
    assert nxt.checking
    assert sorted(e.name for e in nxt.seated) == sorted(present)
    first = publish_next(event, director)
    seats = TableSeat.objects.filter(table__round=first)
    seated = set(seats.values_list("entrant__name", flat=True))
    assert seated == set(present)


def test_a_check_in_is_taken_back_until_the_next_round_is_seated(event, director):
    open_check_in(event, director)
    for name in NAMES[:4]:
        services.entrant_self_check_in(entrant=entrant(event, name))
    ann = entrant(event, "Ann")
    services.entrant_self_check_in(entrant=ann, checked_in=False)
    assert not entrant(event, "Ann").checked_in
    services.entrant_self_check_in(entrant=ann, checked_in=True)
    services.entrant_self_check_in(entrant=entrant(event, "Eve"))
    services.tournament_round_generate(event=event, user=director)  # a draft: seated
    with pytest.raises(services.TournamentError) as refused:
        services.entrant_self_check_in(entrant=entrant(event, "Ann"), checked_in=False)
    assert "seated already" in str(refused.value)
    assert entrant(event, "Ann").checked_in


def test_a_check_in_window_opens_and_closes_by_the_clock(event, director):
    now = timezone.now()
    services.event_self_service_set(
        event=event,
        self_check_in="window",
        opens_at=now + timedelta(minutes=30),
        closes_at=now + timedelta(hours=2),
        user=director,
    )
    event.refresh_from_db()
    assert not me_selectors.check_in_state(event, now=now).open
    assert me_selectors.check_in_state(event, now=now + timedelta(hours=1)).open
    assert not me_selectors.check_in_state(event, now=now + timedelta(hours=3)).open
    with pytest.raises(services.TournamentError):
        services.entrant_self_check_in(entrant=entrant(event, "Ann"))
    services.event_self_service_set(
        event=event,
        self_check_in="window",
        opens_at=now - timedelta(minutes=5),
        closes_at=now + timedelta(minutes=5),
        user=director,
    )
    services.entrant_self_check_in(entrant=entrant(event, "Ann"))
    assert entrant(event, "Ann").checked_in


@pytest.mark.parametrize(
    ("mode", "opens", "closes", "fields"),
    [
        ("window", None, None, {"check_in_opens_at", "check_in_closes_at"}),
        ("window", 2, 1, {"check_in_closes_at"}),
        ("sometimes", None, None, {"self_check_in"}),
    ],
)
def test_a_wrong_check_in_setting_is_refused_by_field(event, director, mode, opens, closes, fields):
    now = timezone.now()
    with pytest.raises(services.TournamentError) as refused:
        services.event_self_service_set(
            event=event,
            self_check_in=mode,
            opens_at=now + timedelta(hours=opens) if opens else None,
            closes_at=now + timedelta(hours=closes) if closes else None,
            user=director,
        )
    assert problem_fields(refused.value) == fields
    event.refresh_from_db()
    assert event.self_check_in == "closed"


def test_a_wrong_drop_setting_is_refused_by_field(event, director):
    with pytest.raises(services.TournamentError) as refused:
        services.event_self_service_set(
            event=event, self_check_in="open", self_drop="maybe", user=director
        )
    assert problem_fields(refused.value) == {"self_drop"}


# --------------------------------------------------------------------------- drops


def test_a_drop_asked_of_the_desk_waits_for_its_answer(event, director):
    ann = entrant(event, "Ann")
    services.entrant_self_drop(entrant=ann)
    ann.refresh_from_db()
    assert ann.drop_asked_at is not None and not ann.dropped
    desk = me_selectors.desk_self_service(event=event)
    assert [e.name for e in desk.asked] == ["Ann"]
    services.entrant_drop_answer(event=event, entrant=ann, agree=False, user=director)
    ann.refresh_from_db()
    assert ann.drop_asked_at is None and not ann.dropped
    services.entrant_self_drop(entrant=ann)
    services.entrant_drop_answer(event=event, entrant=ann, agree=True, user=director)
    ann.refresh_from_db()
    assert ann.dropped and ann.drop_asked_at is None
    with pytest.raises(services.TournamentError):
        services.entrant_drop_answer(event=event, entrant=ann, agree=True, user=director)


def test_a_drop_asked_for_is_taken_back_by_the_player(event, director):
    ben = entrant(event, "Ben")
    services.entrant_self_drop(entrant=ben)
    services.entrant_self_drop_withdraw(entrant=entrant(event, "Ben"))
    ben.refresh_from_db()
    assert ben.drop_asked_at is None and not ben.dropped
    assert me_selectors.desk_self_service(event=event).asked == ()


def test_an_immediate_drop_is_made_at_once_and_the_desk_takes_it_back(event, director):
    services.event_self_service_set(
        event=event, self_check_in="closed", self_drop="now", user=director
    )
    cat = entrant(event, "Cat")
    services.entrant_self_drop(entrant=cat)
    cat.refresh_from_db()
    assert cat.dropped
    assert [e.name for e in me_selectors.desk_self_service(event=event).dropped_by_self] == ["Cat"]
    services.entrant_return(event=event, entrant=cat, user=director)
    assert not entrant(event, "Cat").dropped
    assert me_selectors.desk_self_service(event=event).dropped_by_self == ()


def test_a_drop_waits_for_the_players_table_to_finish(event, director):
    services.event_self_service_set(
        event=event, self_check_in="closed", self_drop="now", user=director
    )
    first = publish_next(event, director)
    ann = entrant(event, "Ann")
    with pytest.raises(services.TournamentError) as refused:
        services.entrant_self_drop(entrant=ann)
    assert problem_fields(refused.value) == {"drop"}
    for table in first.tables.select_related("game"):
        play_table(table)
    services.entrant_self_drop(entrant=entrant(event, "Ann"))
    assert entrant(event, "Ann").dropped


# --------------------------------------------------------------------------- whose link


def test_a_token_is_its_entrants_until_reissued(event):
    ann = entrant(event, "Ann")
    own = me_selectors.own_link(token=ann.private_token)
    assert own is not None and own.entrant == ann and own.event == event
    old = ann.private_token
    Entrant.objects.filter(pk=ann.pk).update(private_token=new_private_token())
    assert me_selectors.own_link(token=old) is None
    assert me_selectors.own_link(token="") is None
    assert me_selectors.own_link(token="x" * 200) is None


def test_a_roster_players_token_leads_to_the_night_being_played(director, event):
    roster = Roster.objects.create(owner=director)
    ann = Player.objects.create(roster=roster, name="Ann", folded="ann")
    assert me_selectors.own_link(token=ann.private_token).event is None
    ClubNight.objects.create(event=event, roster=roster)
    own = me_selectors.own_link(token=ann.private_token)
    assert own.event == event and own.entrant is None  # not registered tonight
    EntrantPlayer.objects.create(entrant=entrant(event, "Ann"), player=ann)
    own = me_selectors.own_link(token=ann.private_token)
    assert own.entrant == entrant(event, "Ann")
    services.event_close(event=event, user=director)
    assert me_selectors.own_link(token=ann.private_token).event is None


# --------------------------------------------------------------------------- at the table


def seated_game(event: Event, director, name: str):
    publish_next(event, director)
    seat = me_selectors.my_seat(event, entrant(event, name))
    assert seat is not None
    return me_selectors.table_game(seat.game_id), seat


def test_the_proof_names_the_player_at_their_seat_only_while_the_link_is_theirs(event, director):
    game, seat = seated_game(event, director, "Ann")
    own = me_selectors.own_link(token=entrant(event, "Ann").private_token)
    assert me_selectors.person_at_seat(game_id=game.pk, seat=seat.seat_index, proof=own.proof) == (
        "Ann"
    )
    other = (seat.seat_index + 1) % 4
    assert me_selectors.person_at_seat(game_id=game.pk, seat=other, proof=own.proof) == ""
    assert me_selectors.person_at_seat(game_id=game.pk, seat=seat.seat_index, proof="e1.x") == ""
    assert me_selectors.person_at_seat(game_id=game.pk, seat=seat.seat_index, proof="junk") == ""
    Entrant.objects.filter(name="Ann").update(private_token=new_private_token())
    assert me_selectors.person_at_seat(game_id=game.pk, seat=seat.seat_index, proof=own.proof) == ""


def test_a_seat_held_by_a_link_is_entered_and_confirmed_only_from_that_phone(event, director):
    game, seat = seated_game(event, director, "Ann")
    ann = seat.seat_index
    seat_hold(game=game, seat=ann, actor=Actor(seat=ann, device="ann-phone", person="Ann"))
    entry = DEALS[4][0] | {"bidder": ann}
    with pytest.raises(GameChangeError) as refused:
        round_record(game=game, number=1, entry=entry, actor=Actor(seat=ann, device="other"))
    assert "Ann holds this seat" in str(refused.value)
    round_record(
        game=game, number=1, entry=entry, actor=Actor(seat=ann, device="ann-phone", person="Ann")
    )
    opponent = (ann + 1) % 4
    round_confirm(game=game, number=1, actor=Actor(seat=opponent, device="ben-phone", person="Ben"))
    record, confirm = (
        RoundEvent.objects.filter(game=game, action=action).get()
        for action in (RoundEvent.Action.RECORD, RoundEvent.Action.CONFIRM)
    )
    assert (record.person, record.seat) == ("Ann", ann)
    assert (confirm.person, confirm.seat) == ("Ben", opponent)
    hold = RoundEvent.objects.filter(game=game, action=RoundEvent.Action.HOLD).get()
    assert hold.person == "Ann" and hold.device == "ann-phone"
    # The holding phone whose link was reissued since proves nothing: refused too.
    with pytest.raises(GameChangeError) as refused:
        round_record(game=game, number=2, entry=entry, actor=Actor(seat=ann, device="ann-phone"))
    assert "no longer valid" in str(refused.value)


def test_holding_a_seat_needs_a_proven_player(event, director):
    game, seat = seated_game(event, director, "Ann")
    with pytest.raises(GameChangeError):
        seat_hold(game=game, seat=seat.seat_index, actor=Actor(seat=seat.seat_index, device="p"))
    with pytest.raises(GameChangeError):
        seat_hold(game=game, seat=9, actor=Actor(seat=9, device="p", person="Ann"))


# --------------------------------------------------------------------------- properties

moments = st.integers(min_value=-600, max_value=600).map(lambda m: timedelta(minutes=m))


@given(
    mode=st.sampled_from(["closed", "open", "window"]), opens=moments, closes=moments, at=moments
)
def test_check_in_is_open_exactly_as_its_setting_says(mode, opens, closes, at):
    base = timezone.now()
    event = Event(
        self_check_in=mode,
        check_in_opens_at=base + opens,
        check_in_closes_at=base + closes,
        status="running",
    )
    state = me_selectors.check_in_state(event, now=base + at)
    assert state.open is (mode == "open" or (mode == "window" and opens <= at < closes))
    event.status = "closed"
    assert not me_selectors.check_in_state(event, now=base + at).open


ticks = st.lists(
    st.tuples(st.sampled_from(NAMES[:5]), st.booleans(), st.sampled_from(["self", "desk"])),
    max_size=12,
)


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=ticks)
def test_a_players_own_check_in_is_the_desks_tick(director, steps):
    """Whoever ticks last (the player or the desk) is what the next round reads; the
    availability rule is the desk's own."""
    event = services.event_create(owner=director, name="Tick", game="roolz", table_size=4)
    services.entrants_import_csv(event=event, text="\n".join(NAMES[:5]), user=director)
    open_check_in(event, director)
    last: dict[str, bool] = {}
    for name, present, who in steps:
        if who == "self":
            services.entrant_self_check_in(entrant=entrant(event, name), checked_in=present)
        else:
            services.entrant_check_in(
                event=event, entrant=entrant(event, name), checked_in=present, user=director
            )
        last[name] = present
    event.refresh_from_db()
    seated = {e.name for e in availability_for(event, number=1).seated}
    here = {name for name, present in last.items() if present}
    assert seated == (here if here else set(NAMES[:5]))


# --------------------------------------------------------------------------- a club night


def test_a_27_player_club_night_run_from_the_players_own_links(director):
    """Players check themselves in and find their seats; at every table the deals are
    entered and confirmed from the players' own phones, and every confirmation in the
    audit names a person of the other side."""
    club = [f"Player {n:02d}" for n in range(1, 28)]
    event = services.event_create(
        owner=director, name="Club night", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(event=event, text="\n".join(club), user=director)
    open_check_in(event, director)
    here = club[:25]  # two stay home
    for name in here:
        services.entrant_self_check_in(entrant=entrant(event, name))
    first = publish_next(event, director)

    seated = {}
    for name in here:
        own = me_selectors.own_link(token=entrant(event, name).private_token)
        seat = me_selectors.my_seat(event, own.entrant)
        if seat is not None:
            seated[name] = (own, seat)
    in_byes = set(first.byes.values_list("entrant__name", flat=True))
    assert set(seated) | in_byes == set(here)
    assert not {club[25], club[26]} & (set(seated) | in_byes)

    for table in first.tables.select_related("game"):
        game = table.game
        sitting = {s.seat: s.entrant.name for s in table.seats.select_related("entrant")}
        phones = {}
        for index, name in sitting.items():
            own, seat = seated[name]
            actor = Actor(seat=index, device=f"phone of {name}", person=name)
            seat_hold(game=game, seat=index, actor=actor)
            phones[index] = actor
        for number, entry in enumerate(DEALS[len(sitting)], start=1):
            round_record(game=game, number=number, entry=entry, actor=phones[0])
            game.refresh_from_db()
            score = game_score(game)
            other_side = sorted(set(sitting) - side_in_round(game, score, number, 0))
            round_confirm(game=game, number=number, actor=phones[other_side[0]])

    for table in first.tables.select_related("game"):
        game = table.game
        score = game_score(game)
        names = {s.seat: s.entrant.name for s in table.seats.select_related("entrant")}
        for confirm in RoundEvent.objects.filter(game=game, action=RoundEvent.Action.CONFIRM):
            entered = RoundEvent.objects.get(
                game=game, action=RoundEvent.Action.RECORD, round_number=confirm.round_number
            )
            side = side_in_round(game, score, confirm.round_number, entered.seat)
            assert confirm.person == names[confirm.seat]
            assert confirm.seat not in side, "a confirmation from the same side"
            assert confirm.person != entered.person
