"""Every worked case of the spec, straight through the engines."""

import pytest

from scoring.engines.base import InvalidRecord
from scoring.engines.registry import score_data
from tests.vectors import assert_matches, vector_cases


@pytest.mark.parametrize(("case_id", "case"), vector_cases(), ids=[c[0] for c in vector_cases()])
def test_vector(case_id, case):
    if case.get("invalid"):
        with pytest.raises(InvalidRecord) as raised:
            score_data(case["record"])
        assert raised.value.problems, case_id
        assert all(str(p) for p in raised.value.problems)
    else:
        assert_matches(case["output"], score_data(case["record"]).as_dict())
