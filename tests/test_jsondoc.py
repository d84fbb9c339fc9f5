"""The one JSON reader: every document read back as written, or refused with a reason."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.jsondoc import DEEPEST, DocumentError, read_json

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(JSON)
def test_a_document_is_read_as_written(value):
    text = json.dumps(value, ensure_ascii=False)
    assert read_json(text.encode(), largest=10**7) == value
    assert read_json("\ufeff" + text, largest=10**7) == value  # a byte order mark is fine


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (nested(DEEPEST + 1), f"nests deeper than {DEEPEST} levels"),
        (nested(950), "nests deeper"),
        (nested(200_000), "nests deeper"),
        ('{"a": ' * 100_000 + "1" + "}" * 100_000, "nests deeper"),
        ("[NaN]", "holds NaN"),
        ('{"x": -Infinity}', "holds -Infinity"),
        ("1" * 5000, "number too long"),
        ('["\\ud800"]', "not valid text"),
        (b"\xff\xfe[]", "not UTF-8"),
        ("{nope", "is not JSON: Expecting property name"),
        ("  ", "is empty"),
        ("[" + " " * 100 + "]", "larger than 64 bytes"),
        ('"' + '\\"' * 30_000, "is not JSON"),  # an unterminated string of escaped quotes
    ],
)
def test_what_cannot_be_read_is_refused_with_its_reason(raw, reason):
    largest = 64 if reason.startswith("larger") else 10**7
    with pytest.raises(DocumentError) as refused:
        read_json(raw, largest=largest)
    assert reason in refused.value.reason


def test_the_deepest_allowed_is_read():
    assert read_json(nested(DEEPEST), largest=10**6) is not None
