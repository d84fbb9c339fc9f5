"""The sources of sheets a print job can draw from, found by the ``kind`` of its request.

A print job's ``what`` is a small JSON object whose ``kind`` names a source:
``{"kind": "blank", ...}`` and ``{"kind": "games", ...}`` are the scoresheets
(``printing.sources``). Another app adds its own sheets (table cards, brackets)
by registering a source in its ``AppConfig.ready``; printing itself is not
changed for it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.translation import gettext

from printing.errors import PrintRequestError
from printing.render.paper import PAPER_NAMES
from printing.render.words import use_translator

if TYPE_CHECKING:
    from printing.render.document import Printable


class SheetSource(Protocol):
    """Where the sheets of one kind of print request come from."""

    kind: str  # the ``kind`` of the requests it answers

    def sheets(self, what: Mapping[str, Any]) -> tuple[Iterator[Printable], int]:
        """The sheets (possibly built while they are drawn) and how many there are.

        A request that cannot be printed raises ``PrintRequestError``.
        """
        ...

    def describe(self, what: Mapping[str, Any], paper_name: str) -> str:
        """The request in words, for the job page ("10 blank <game> sheets for 4 players, A4",
        the game by its title)."""
        ...

    def filename(self, what: Mapping[str, Any]) -> str: ...

    def freshness(self, what: Mapping[str, Any]) -> dict[str, Any]:
        """What else makes a request new ({} when nothing): a game changed since is printed
        afresh, so the games' revisions go into the request's key."""
        ...

    def back(self, what: Mapping[str, Any]) -> tuple[str, str]:
        """Where the job page leads once the sheets are ready: (words, address)."""
        ...


class SourceRegistry:
    def __init__(self) -> None:
        self._sources: dict[str, SheetSource] = {}

    def register(self, source: SheetSource) -> None:
        known = self._sources.get(source.kind)
        if known is not None and known is not source:
            raise ValueError(f"a sheet source of kind {source.kind!r} is already registered")
        self._sources[source.kind] = source

    def unregister(self, kind: str) -> None:
        self._sources.pop(kind, None)

    def kinds(self) -> tuple[str, ...]:
        return tuple(self._sources)

    def get(self, kind: Any) -> SheetSource:
        source = self._sources.get(kind) if isinstance(kind, str) else None
        if source is None:
            raise PrintRequestError(gettext("this print job does not say what to print"))
        return source

    def for_request(self, what: Mapping[str, Any]) -> SheetSource:
        return self.get(what.get("kind"))

    def describe(self, what: Mapping[str, Any], paper: str) -> str:
        """A print request in words; a request of an unknown kind still gets a line."""
        paper_name = gettext(PAPER_NAMES.get(paper, paper))
        source = self._sources.get(str(what.get("kind")))
        if source is None:
            return gettext("Sheets, {paper}").format(paper=paper_name)
        return source.describe(what, paper_name)


SOURCES = SourceRegistry()

# The renderer's own words ("continued", "page 1 of 2") in the language of the sheets drawn.
use_translator(gettext)
