"""Two-team elimination: seeding, byes, advancing, draws, overrides, placements, layout."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.brackets.play import play_out
from tournaments.brackets.core import (
    BracketUserError,
    DrawRule,
    EliminationBracket,
    GrandFinal,
    Override,
    Result,
    Seeding,
    Status,
    bracket_layout,
    cut_to_top,
    double_elimination,
    override_advancement,
    report_result,
    seed_field,
    single_elimination,
    standard_positions,
)
from tournaments.brackets.core.two_team import bracket_size

FIELD = st.integers(min_value=2, max_value=128)
SOME = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def names(count: int) -> list[str]:
    return [f"s{index}" for index in range(1, count + 1)]


def make(kind: str, count: int, *, third_place: bool = False, final: GrandFinal = GrandFinal.RESET):
    if kind == "single":
        return single_elimination(names(count), third_place=third_place and count >= 3)
    return double_elimination(names(count), grand_final=final)


def first_round(bracket: EliminationBracket):
    state = bracket.state()
    section = "main" if bracket.format == "single" else "winners"
    return [view for view in state.matches if view.section == section and view.round == 1]


def losses(bracket: EliminationBracket) -> Counter[str]:
    counted: Counter[str] = Counter()
    for view in bracket.state().matches:
        if view.status is Status.DONE:
            counted.update(view.finish[1:])
    return counted


# --------------------------------------------------------------------------- exact cases


def test_eight_team_single_elimination_pairs_one_eight_four_five_two_seven_three_six():
    pairs = [view.seats for view in first_round(make("single", 8))]
    assert pairs == [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")]


@pytest.mark.parametrize(
    ("size", "order"),
    [
        (2, (1, 2)),
        (4, (1, 4, 2, 3)),
        (8, (1, 8, 4, 5, 2, 7, 3, 6)),
        (16, (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)),
    ],
)
def test_standard_positions(size, order):
    assert standard_positions(size) == order


def test_six_teams_give_the_two_byes_to_the_top_two_seeds():
    views = first_round(make("single", 6))
    byes = {view.entrants[0] for view in views if view.status is Status.BYE}
    assert byes == {"s1", "s2"}
    assert [view.seats for view in views if view.status is Status.READY] == [
        ("s4", "s5"),
        ("s3", "s6"),
    ]


def test_the_winner_advances_and_the_next_match_becomes_ready_when_both_sides_are_known():
    bracket = make("single", 4)
    bracket = report_result(bracket, Result.ranked("R1-1", "s4", "s1"))
    state = bracket.state()
    assert state.match("R2-1").status is Status.WAITING
    assert state.match("R2-1").seats == ("s4", None)
    bracket = report_result(bracket, Result.ranked("R1-2", "s2", "s3"))
    final = bracket.state().match("R2-1")
    assert final.status is Status.READY
    assert final.seats == ("s4", "s2")
    assert final.feeding_matches == ("R1-1", "R1-2")


def test_third_place_match_ranks_the_semifinal_losers():
    bracket = single_elimination(names(4), third_place=True)
    for result in [
        Result.ranked("R1-1", "s1", "s4"),
        Result.ranked("R1-2", "s3", "s2"),
        Result.ranked("R2-1", "s3", "s1"),
    ]:
        bracket = report_result(bracket, result)
    assert bracket.state().match("3P").seats == ("s4", "s2")
    bracket = report_result(bracket, Result.ranked("3P", "s2", "s4"))
    state = bracket.state()
    assert state.complete
    assert [(p.entrant, p.first, p.last) for p in state.placements] == [
        ("s3", 1, 1),
        ("s1", 2, 2),
        ("s2", 3, 3),
        ("s4", 4, 4),
    ]


def test_without_third_place_the_semifinal_losers_share_third():
    bracket = make("single", 4)
    for result in [
        Result.ranked("R1-1", "s1", "s4"),
        Result.ranked("R1-2", "s2", "s3"),
        Result.ranked("R2-1", "s2", "s1"),
    ]:
        bracket = report_result(bracket, result)
    places = {p.entrant: (p.first, p.last) for p in bracket.state().placements}
    assert places == {"s2": (1, 1), "s1": (2, 2), "s4": (3, 4), "s3": (3, 4)}


def play_to_grand_final(bracket: EliminationBracket) -> EliminationBracket:
    """Four teams, the higher seed winning everything before the grand final."""
    state = bracket.state()
    while ready := [v for v in state.ready if v.section != "grand_final"]:
        for view in ready:
            ranked = sorted(view.entrants, key=lambda name: int(name[1:]))
            bracket = report_result(bracket, Result.ranked(view.id, *ranked))
        state = bracket.state()
    return bracket


def test_grand_final_reset_is_not_played_when_the_winners_champion_wins_the_first():
    bracket = play_to_grand_final(make("double", 4))
    final = bracket.state().match("GF")
    assert final.seats == ("s1", "s2")
    bracket = report_result(bracket, Result.ranked("GF", "s1", "s2"))
    state = bracket.state()
    assert state.match("GF2").status is Status.NOT_NEEDED
    assert state.complete
    assert state.champion == "s1"


def test_grand_final_reset_is_played_when_the_losers_champion_wins_the_first():
    bracket = play_to_grand_final(make("double", 4))
    bracket = report_result(bracket, Result.ranked("GF", "s2", "s1"))
    state = bracket.state()
    assert not state.complete
    assert state.match("GF2").status is Status.READY
    assert set(state.match("GF2").entrants) == {"s1", "s2"}
    bracket = report_result(bracket, Result.ranked("GF2", "s2", "s1"))
    assert bracket.state().champion == "s2"


def test_single_game_grand_final_ends_the_event_either_way():
    bracket = play_to_grand_final(make("double", 4, final=GrandFinal.SINGLE))
    bracket = report_result(bracket, Result.ranked("GF", "s2", "s1"))
    state = bracket.state()
    assert state.complete
    assert state.champion == "s2"
    assert "GF2" not in {view.id for view in state.matches}


def test_no_grand_final_crowns_the_winners_champion_and_seconds_the_losers_champion():
    bracket = play_to_grand_final(make("double", 4, final=GrandFinal.NONE))
    state = bracket.state()
    assert state.complete
    assert state.champion == "s1"
    assert [p.entrant for p in state.placements if p.first == 2] == ["s2"]


def test_losers_of_winners_round_one_meet_in_losers_round_one():
    state = make("double", 8).state()
    assert state.match("L1-1").feeds[0].match == "W1-1"
    assert state.match("L1-1").feeds[1].match == "W1-2"
    fed = {feed.match for view in state.matches if view.section == "losers" for feed in view.feeds}
    assert {
        f"W{r}-{n}" for r, count in ((1, 4), (2, 2), (3, 1)) for n in range(1, count + 1)
    } <= fed


# ------------------------------------------------------------------ draws, overrides, errors


@pytest.mark.parametrize(
    ("rule", "outcome"),
    [(DrawRule.HIGHER_SEED, "s1"), (DrawRule.RANDOM, None)],
)
def test_a_level_result_is_settled_by_the_rule_chosen_before_the_stage(rule, outcome):
    bracket = single_elimination(names(2), draw_rule=rule, seed=7)
    bracket = report_result(bracket, Result("R1-1", (("s2", "s1"),)))
    state = bracket.state()
    assert state.complete
    if outcome is not None:
        assert state.champion == outcome
    else:
        again = report_result(
            single_elimination(names(2), draw_rule=rule, seed=7), Result("R1-1", (("s1", "s2"),))
        )
        assert again.state().champion == state.champion  # the lot is reproducible


def test_the_replay_rule_refuses_a_level_result():
    bracket = single_elimination(names(2), draw_rule=DrawRule.REPLAY)
    with pytest.raises(BracketUserError, match="replay") as caught:
        report_result(bracket, Result("R1-1", (("s1", "s2"),)))
    assert caught.value.match == "R1-1"
    assert caught.value.field == "finish"


def test_an_override_changes_who_advances_and_stays_on_record():
    bracket = make("single", 4)
    bracket = report_result(bracket, Result.ranked("R1-1", "s1", "s4"))
    bracket = override_advancement(
        bracket, Override("R1-1", (("s4",), ("s1",)), reason="s1 fielded an unregistered player")
    )
    view = bracket.state().match("R1-1")
    assert view.finish == ("s4", "s1")
    assert view.reported == (("s1",), ("s4",))
    assert view.override is not None and view.override.reason.startswith("s1 fielded")
    assert bracket.state().match("R2-1").seats[0] == "s4"
    layout = bracket_layout(bracket.state(), bracket.seeds)
    assert next(m for m in layout.sections[0].columns[0].matches if m.id == "R1-1").overridden


def test_an_override_can_send_a_side_through_a_match_never_played():
    bracket = override_advancement(
        make("single", 2), Override("R1-1", ("s2", "s1"), reason="s1 withdrew")
    )
    assert bracket.state().champion == "s2"


def test_a_result_cannot_change_once_the_next_match_is_played():
    bracket = make("single", 4)
    for result in [Result.ranked("R1-1", "s1", "s4"), Result.ranked("R1-2", "s2", "s3")]:
        bracket = report_result(bracket, result)
    corrected = report_result(bracket, Result.ranked("R1-1", "s4", "s1"), correction=True)
    assert corrected.state().match("R2-1").seats == ("s4", "s2")
    bracket = report_result(bracket, Result.ranked("R2-1", "s1", "s2"))
    with pytest.raises(BracketUserError, match="R2-1 already played"):
        report_result(bracket, Result.ranked("R1-1", "s4", "s1"), correction=True)
    with pytest.raises(BracketUserError, match="already played"):
        override_advancement(bracket, Override("R1-1", ("s4", "s1"), reason="late protest"))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda b: report_result(b, Result.ranked("R9-9", "s1", "s2")), "no match 'R9-9'"),
        (lambda b: report_result(b, Result.ranked("R2-1", "s1", "s2")), "waiting"),
        (lambda b: report_result(b, Result.ranked("R1-1", "s1", "s2")), "exactly once"),
        (lambda b: report_result(b, Result.ranked("R1-1", "s1", "s1")), "exactly once"),
        (
            lambda b: report_result(
                report_result(b, Result.ranked("R1-1", "s1", "s4")),
                Result.ranked("R1-1", "s4", "s1"),
            ),
            "correction",
        ),
        (lambda b: override_advancement(b, Override("R1-1", ("s4", "s1"), reason=" ")), "reason"),
        (lambda b: override_advancement(b, Override("R1-1", (("s4", "s1"),), reason="x")), "ties"),
    ],
)
def test_impossible_requests_are_user_errors(action, message):
    with pytest.raises(BracketUserError, match=message):
        action(make("single", 4))


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: single_elimination(["solo"]), "seeds"),
        (lambda: double_elimination([]), "seeds"),
        (lambda: single_elimination(["a", "a", "b"]), "seeds"),
        (lambda: single_elimination(["a", "b"], third_place=True), "third_place"),
        (lambda: seed_field(["a", "b"], Seeding.MANUAL, order=["a", "c"]), "order"),
        (lambda: seed_field(["a", "b"], Seeding.MANUAL), "order"),
        (lambda: cut_to_top(["a", "b", "c"], 4), "cut"),
        (lambda: cut_to_top(["a", "b", "c"], 1), "cut"),
    ],
)
def test_bad_set_ups_name_their_field(build, field):
    with pytest.raises(BracketUserError) as caught:
        build()
    assert caught.value.field == field


def test_seeding_by_standings_random_and_hand():
    field = ["ann", "bob", "cy", "dee", "eve"]
    assert seed_field(field, Seeding.STANDINGS) == tuple(field)
    shuffled = seed_field(field, Seeding.RANDOM, seed=3)
    assert sorted(shuffled) == sorted(field)
    assert seed_field(field, Seeding.RANDOM, seed=3) == shuffled
    assert {seed_field(field, Seeding.RANDOM, seed=s) for s in range(10)} != {shuffled}
    by_hand = ["eve", "dee", "cy", "bob", "ann"]
    assert seed_field(field, Seeding.MANUAL, order=by_hand) == tuple(by_hand)


def test_a_cut_to_the_top_eight_feeds_the_bracket_in_standings_order():
    standings = [f"q{index}" for index in range(1, 13)]
    cut = cut_to_top(standings, 8)
    assert cut.out == tuple(standings[8:])
    pairs = [view.seats for view in first_round(single_elimination(cut.qualified))]
    assert pairs == [("q1", "q8"), ("q4", "q5"), ("q2", "q7"), ("q3", "q6")]


def test_layout_gives_named_columns_and_feeder_lines():
    bracket = report_result(make("single", 8), Result.ranked("R1-1", "s8", "s1"))
    layout = bracket_layout(bracket.state(), bracket.seeds)
    [section] = layout.sections
    assert [c.title for c in section.columns] == ["Quarterfinals", "Semifinals", "Final"]
    semi = section.columns[1].matches[0]
    assert semi.feeders == ("R1-1", "R1-2")
    assert [seat.label for seat in semi.seats] == ["s8", "Winner of R1-2"]
    assert semi.seats[0].seed == 8
    assert layout.widest_column == 4


def test_double_layout_reads_winners_losers_then_grand_final():
    state = make("double", 8).state()
    layout = bracket_layout(state, names(8))
    assert [s.key for s in layout.sections] == ["winners", "losers", "grand_final"]
    losers = layout.sections[1]
    assert [len(c.matches) for c in losers.columns] == [2, 2, 1, 1]
    assert losers.columns[0].matches[0].seats[0].label == "Loser of W1-1"


# --------------------------------------------------------------------------- properties


@SOME
@given(count=FIELD, kind=st.sampled_from(["single", "double"]))
def test_byes_go_to_the_top_seeds_and_never_meet(count, kind):
    bracket = make(kind, count)
    views = first_round(bracket)
    byes = bracket_size(count) - count
    assert len(views) == bracket_size(count) // 2
    assert all(view.status is not Status.EMPTY for view in views), "a bye met a bye"
    with_bye = sorted(view.entrants[0] for view in views if view.status is Status.BYE)
    assert with_bye == sorted(names(count)[:byes])
    seated = [name for view in views for name in view.entrants]
    assert sorted(seated) == sorted(names(count))


@SOME
@given(
    count=FIELD,
    kind=st.sampled_from(["single", "double"]),
    third_place=st.booleans(),
    final=st.sampled_from(list(GrandFinal)),
    seed=st.integers(0, 10**6),
)
def test_playing_to_the_end_places_everyone_once_with_one_champion(
    count, kind, third_place, final, seed
):
    _bracket, state = play_out(
        make(kind, count, third_place=third_place, final=final), random.Random(seed), ties=True
    )
    assert state.complete and not state.ready
    placed = [p.entrant for p in state.placements]
    assert sorted(placed) == sorted(names(count))
    assert len([p for p in state.placements if p.first == 1]) == 1
    assert state.champion is not None
    # The places partition 1..N: each range is exactly as wide as the entrants sharing it.
    ranges = Counter((p.first, p.last) for p in state.placements)
    assert all(last - first + 1 == shared for (first, last), shared in ranges.items())
    assert sorted(f for f, _ in ranges) == sorted({f for f, _ in ranges})
    assert sum(ranges.values()) == count


@SOME
@given(count=FIELD, seed=st.integers(0, 10**6))
def test_double_elimination_knocks_out_only_after_two_losses(count, seed):
    bracket, state = play_out(make("double", count), random.Random(seed))
    lost = losses(bracket)
    champion = state.champion
    for name in names(count):
        if name == champion:
            assert lost[name] <= 1
        else:
            assert lost[name] == 2, f"{name} left after {lost[name]} losses"
    # Nobody plays on after a second loss.
    seen: Counter[str] = Counter()
    for view in state.matches:
        if view.status is Status.DONE:
            assert all(seen[name] < 2 for name in view.entrants)
            seen.update(view.finish[1:])


@SOME
@given(count=FIELD, seed=st.integers(0, 10**6))
def test_grand_final_reset_is_played_exactly_when_the_first_final_is_an_upset(count, seed):
    _bracket, state = play_out(make("double", count), random.Random(seed))
    first = state.match("GF")
    second = state.match("GF2")
    upset = first.finish[0] != first.seats[0]
    assert (second.status is Status.DONE) == upset
    assert (second.status is Status.NOT_NEEDED) == (not upset)
    assert state.champion == (second.finish[0] if upset else first.finish[0])


@SOME
@given(count=FIELD)
def test_the_better_seed_always_winning_gives_seed_order_at_the_top(count):
    bracket = single_elimination(names(count), third_place=count >= 3)
    state = bracket.state()
    while not state.complete:
        for view in state.ready:
            ranked = sorted(view.entrants, key=lambda name: int(name[1:]))
            bracket = report_result(bracket, Result.ranked(view.id, *ranked))
        state = bracket.state()
    top = {p.entrant: p.first for p in state.placements if p.first <= 4}
    assert top == {f"s{i}": i for i in range(1, min(count, 4) + 1)}
