"""Hypothesis strategy: valid Roller Derby records, with every option in play."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st


def _score(target: int, tricks: int, jokers: int, cost: int) -> int:
    return max(0, 100 - 10 * abs(tricks - target) - cost * jokers)


@st.composite
def _records(draw: st.DrawFn) -> dict[str, Any]:
    deals = draw(st.sampled_from([4, 8]))
    dodecahedron = draw(st.booleans())
    jokers_for_sale = draw(st.booleans())
    joker_cost = draw(st.integers(0, 100))
    counter_clockwise = draw(st.booleans())
    gap = draw(st.one_of(st.none(), st.integers(0, 300)))
    options: dict[str, Any] = {
        "deals": deals,
        "dodecahedron": dodecahedron,
        "jokers_for_sale": jokers_for_sale,
        "joker_cost": joker_cost,
        "counter_clockwise": counter_clockwise,
        "early_finish_gap": gap,
        "rollers_privilege": draw(st.booleans()),
    }
    first_dealer = draw(st.integers(0, 3))
    step = -1 if counter_clockwise else 1
    count = draw(st.integers(1, deals))
    used = {"A": False, "B": False}
    totals = {"A": 0, "B": 0}
    rounds: list[dict[str, Any]] = []
    for index in range(count):
        roller = (first_dealer + step * (index + 1)) % 4
        team = "A" if roller % 2 == 0 else "B"
        if dodecahedron:
            dice = [draw(st.integers(1, 12))]
        else:
            dice = [draw(st.integers(1, 6)), draw(st.integers(1, 6))]
        entry: dict[str, Any] = {"dice": dice}
        if not used[team] and draw(st.integers(0, 3)) == 0:
            used[team] = True
            made = draw(st.booleans())
            entry["all_or_nothing"] = True
            entry["made"] = made
            if draw(st.booleans()):  # all or nothing needs no dice; a record may keep them
                del entry["dice"]
            if jokers_for_sale and draw(st.booleans()):
                entry["jokers"] = 0
            score = 150 if made else 0
        else:
            tricks = draw(st.integers(0, 13))
            entry["tricks"] = tricks
            if draw(st.booleans()):
                entry["all_or_nothing"] = False
            jokers = 0
            if jokers_for_sale and draw(st.booleans()):
                jokers = draw(st.integers(0, 2))
                entry["jokers"] = jokers
            score = _score(sum(dice), tricks, jokers, joker_cost)
        totals[team] += score
        penalties = draw(
            st.lists(
                st.fixed_dictionaries(
                    {"player": st.integers(0, 3), "points": st.sampled_from([0, 10, 50, 100])},
                    optional={"reason": st.sampled_from(["", "revoke", "misdeal"])},
                ),
                max_size=2,
            )
        )
        if penalties:
            entry["penalties"] = penalties
            for item in penalties:
                totals["A" if item["player"] % 2 == 0 else "B"] -= item["points"]
        rounds.append(entry)
    record: dict[str, Any] = {
        "format": 1,
        "game": "roller_derby",
        "players": ["Ann", "Ben", "Cat", "Dan"],
        "options": options,
        "first_dealer": first_dealer,
        "rounds": rounds,
    }
    can_end = gap is not None and count == deals - 1 and abs(totals["A"] - totals["B"]) > gap
    if can_end and draw(st.booleans()):
        record["ended_early"] = True
    elif draw(st.booleans()):
        record["ended_early"] = False
    return record


def valid_records() -> st.SearchStrategy[dict[str, Any]]:
    """Valid Roller Derby records: 1 to `deals` deals, every option, sometimes ended early."""
    return _records()
