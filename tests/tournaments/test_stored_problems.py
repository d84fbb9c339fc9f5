"""Problems kept in a record (a failed job's reason) and read back later: the same words,
said again in the language of whoever reads them, whatever their values are."""

from __future__ import annotations

import json

from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from common.phrases import N_, Phrase, Seat
from scoring.engines.base import Problem
from scoring.wording import problem_text
from tournaments.errors import listed, read_problems, stored_problems

names = st.text(alphabet=st.characters(exclude_characters="{}"), max_size=12)
plain = st.one_of(st.integers(-(10**6), 10**6), names, st.none(), st.booleans())
values = st.recursive(
    plain | st.integers(0, 9).map(Seat),
    lambda inner: st.builds(
        lambda kept: Phrase(" / ".join(f"{{{k}}}" for k in kept), kept),
        st.dictionaries(st.sampled_from("abc"), inner, max_size=3),
    ),
    max_leaves=6,
)
problems = st.lists(
    st.builds(
        lambda kept, field, number: Problem(
            " ".join(f"{{{k}}}" for k in kept) or "nothing", number, field, kept
        ),
        st.dictionaries(st.sampled_from("xyz"), values, max_size=3),
        st.none() | st.sampled_from(["name", "round", "line 3"]),
        st.none() | st.integers(1, 40),
    ),
    max_size=4,
)


@given(problems)
def test_problems_read_back_say_the_same_words(kept):
    read = read_problems(json.loads(json.dumps(stored_problems(kept))))
    assert [(p.message, p.field, p.round) for p in read] == [
        (p.message, p.field, p.round) for p in kept
    ]


def test_problems_read_back_are_said_in_the_readers_language():
    kept = [
        Problem(
            N_("these tables are not done yet: {tables}"),
            None,
            "status",
            {
                "tables": listed(
                    [Phrase(N_("round {round} table {table}"), {"round": 1, "table": 2})]
                )
            },
        )
    ]
    [read] = read_problems(json.loads(json.dumps(stored_problems(kept))))
    with translation.override("fr-ca"):
        assert problem_text(read) == "ces tables ne sont pas terminées\u00a0: ronde 1 table 2"
    with translation.override("en"):
        assert problem_text(read) == "these tables are not done yet: round 1 table 2"


def test_anything_else_reads_as_no_problem():
    assert read_problems(None) == []
    assert read_problems([{"values": {}}, "x", 3]) == []
