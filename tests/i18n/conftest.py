"""The language a French request activated is the thread's until another request says
otherwise: each test here ends in the default language, so that a test after it (a sheet
drawn in the active language, say) reads what it would read alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def default_language_after() -> Iterator[None]:
    yield
    translation.deactivate()
