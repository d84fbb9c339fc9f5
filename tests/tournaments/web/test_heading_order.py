"""The players' pages go down their headings one level at a time (h1, then h2, ...), as
screen readers and Lighthouse expect."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from django.urls import reverse

from tests.tournaments.web.conftest import publish_next

pytestmark = pytest.mark.django_db


def levels(html: str) -> list[int]:
    main = html.split("<main", 1)[-1]
    return [int(level) for level in re.findall(r"<h([1-6])\b", main)]


def skipped(found: list[int]) -> list[tuple[int, int]]:
    return [(a, b) for a, b in pairwise(found) if b > a + 1]


@pytest.mark.parametrize("name", ["draw", "standings"])
def test_no_heading_level_is_skipped(client, event, director, name):
    publish_next(event, director)
    html = client.get(reverse(f"tournaments:{name}", args=[event.public_token])).content.decode()
    found = levels(html)
    assert found and found[0] == 1, found
    assert skipped(found) == [], found
