"""The paper a request asks for, or the site's own (``TABLESCORE_PAPER_SIZE``)."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext

from printing.render.paper import PAPER_NAMES, normalise_paper

__all__ = ["PAPER_NAMES", "default_paper", "normalise_paper", "paper_choices", "paper_from"]


def paper_choices() -> list[tuple[str, str]]:
    """The papers by their names in the reader's language, for a page's paper picker."""
    return [(key, gettext(name)) for key, name in PAPER_NAMES.items()]


def default_paper() -> str:
    return normalise_paper(getattr(settings, "TABLESCORE_PAPER_SIZE", "A4"))


def paper_from(value: str | None) -> str:
    """A paper size from a request (``?paper=letter``), else the site's default."""
    if not value:
        return default_paper()
    try:
        return normalise_paper(value)
    except ValueError:
        return default_paper()
