"""Pass cards, as sources of the printing app's print jobs: a card per player with the
QR code of their own link (``tournaments.events.passes``), to cut apart and hand out.

- ``event_passes``: every entrant of an event, in name order (dropped ones left out);
- ``roster_passes``: every player of a director's roster (merged duplicates left out),
  whose link leads to their entry in the night being played.

Asked for with a small JSON request (``event_passes_request``, ``roster_passes_request``)
holding the site's address, for the codes; registered in ``TournamentsConfig.ready``.
The sheets are the director's alone: whoever holds a card acts as its player.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from printing.errors import PrintRequestError
from printing.models import PrintJob
from printing.render.passes import PassCard, PassSheet
from printing.services import printjob_create
from tournaments.events.passes import private_link, written_link
from tournaments.events.selectors import folded
from tournaments.models import Event, Player, Roster
from tournaments.printouts.sources import site_address

EVENT_PASSES = "event_passes"
ROSTER_PASSES = "roster_passes"
NO_ADDRESS = gettext_lazy(
    "pass cards need the site's address for their codes: "
    "set TABLESCORE_BASE_URL (https://scores.example.org)"
)


def pass_card(*, name: str, token: str, site: str, note: str = "") -> PassCard:
    link = private_link(site, token)
    written = written_link(link)
    cut = written.index("/me/") + len("/me/")
    return PassCard(name=name, link=link, address=written[:cut], token=written[cut:], note=note)


def _site(what: Mapping[str, Any]) -> str:
    site = site_address(str(what.get("base_url") or ""))
    if not site:
        raise PrintRequestError(NO_ADDRESS)
    return site


def event_passes_sheet(event: Event, site: str) -> PassSheet:
    entrants = sorted(
        event.entrants.filter(dropped=False).only("name", "members", "private_token"),
        key=lambda e: (folded(e.name), e.name, e.pk),
    )
    cards = tuple(
        pass_card(
            name=entrant.name,
            token=entrant.private_token,
            site=site,
            note=", ".join(entrant.members),
        )
        for entrant in entrants
    )
    return PassSheet(title=event.name, cards=cards, footer=f"Tablescore · {event.name}")


def roster_passes_sheet(roster: Roster, site: str) -> PassSheet:
    players = Player.objects.filter(roster=roster, merged_into__isnull=True).order_by(
        "folded", "name", "pk"
    )
    cards = tuple(pass_card(name=p.name, token=p.private_token, site=site) for p in players)
    return PassSheet(
        title=roster.name,
        cards=cards,
        caption=gettext("Your page for every club night: scan, or type"),
        footer=f"Tablescore · {roster.name}",
        empty=gettext("Nobody on the roster yet."),
    )


def event_passes_request(*, event: Event, base_url: str = "") -> dict[str, Any]:
    site = site_address(base_url)
    if not site:
        raise PrintRequestError(NO_ADDRESS)
    return {"kind": EVENT_PASSES, "event": event.pk, "base_url": site}


def roster_passes_request(*, roster: Roster, base_url: str = "") -> dict[str, Any]:
    site = site_address(base_url)
    if not site:
        raise PrintRequestError(NO_ADDRESS)
    return {"kind": ROSTER_PASSES, "roster": roster.pk, "base_url": site}


def event_passes_print(*, event: Event, paper: str | None = None, base_url: str = "") -> PrintJob:
    """The print job of an event's pass cards (the same one when asked again unchanged)."""
    return printjob_create(what=event_passes_request(event=event, base_url=base_url), paper=paper)


def roster_passes_print(
    *, roster: Roster, paper: str | None = None, base_url: str = ""
) -> PrintJob:
    """The print job of a roster's pass cards."""
    return printjob_create(
        what=roster_passes_request(roster=roster, base_url=base_url), paper=paper
    )


class EventPasses:
    """``{"kind": "event_passes", "event", "base_url"}``: a pass per entrant not dropped."""

    kind = EVENT_PASSES

    def _event(self, what: Mapping[str, Any]) -> Event:
        event_id = what.get("event")
        event = Event.objects.filter(pk=event_id).first() if isinstance(event_id, int) else None
        if event is None:
            raise PrintRequestError(gettext("this event no longer exists"))
        return event

    def sheets(self, what: Mapping[str, Any]) -> tuple[Iterator[PassSheet], int]:
        return iter([event_passes_sheet(self._event(what), _site(what))]), 1

    def describe(self, what: Mapping[str, Any], paper_name: str) -> str:
        name = Event.objects.filter(pk=what.get("event", 0)).values_list("name", flat=True)
        return gettext("Pass cards of {name}, {paper}").format(
            name=name.first() or gettext("a removed event"), paper=paper_name
        )

    def filename(self, what: Mapping[str, Any]) -> str:
        return f"event-{what.get('event')}-passes.pdf"

    def back(self, what: Mapping[str, Any]) -> tuple[str, str]:
        return gettext("Back to the players' links"), reverse(
            "tournaments:desk_links", args=[what.get("event")]
        )

    def freshness(self, what: Mapping[str, Any]) -> dict[str, Any]:
        # A player added, dropped or given a new link bumps the revision: printed afresh.
        revision = Event.objects.filter(pk=what.get("event", 0)).values_list("revision", flat=True)
        return {"revision": revision.first()}


class RosterPasses:
    """``{"kind": "roster_passes", "roster", "base_url"}``: a pass per roster player."""

    kind = ROSTER_PASSES

    def sheets(self, what: Mapping[str, Any]) -> tuple[Iterator[PassSheet], int]:
        roster_id = what.get("roster")
        roster = Roster.objects.filter(pk=roster_id).first() if isinstance(roster_id, int) else None
        if roster is None:
            raise PrintRequestError(gettext("this club no longer exists"))
        return iter([roster_passes_sheet(roster, _site(what))]), 1

    def describe(self, what: Mapping[str, Any], paper_name: str) -> str:
        name = Roster.objects.filter(pk=what.get("roster", 0)).values_list("name", flat=True)
        return gettext("Pass cards of {name}, {paper}").format(
            name=name.first() or gettext("a removed club"), paper=paper_name
        )

    def filename(self, what: Mapping[str, Any]) -> str:
        return f"club-{what.get('roster')}-passes.pdf"

    def back(self, what: Mapping[str, Any]) -> tuple[str, str]:
        return gettext("Back to the club's links"), reverse("club:roster_links")

    def freshness(self, what: Mapping[str, Any]) -> dict[str, Any]:
        # Every player's name and token as they stand: a new player, a rename or a new
        # link prints afresh.
        players = Player.objects.filter(roster_id=what.get("roster", 0), merged_into__isnull=True)
        rows = sorted(players.values_list("pk", "name", "private_token"))
        digest = hashlib.sha256(repr(rows).encode()).hexdigest()[:20]
        return {"players": digest}


EVENT_PASS_SOURCE = EventPasses()
ROSTER_PASS_SOURCE = RosterPasses()
SOURCES: tuple[EventPasses | RosterPasses, ...] = (EVENT_PASS_SOURCE, ROSTER_PASS_SOURCE)
SOURCES_BY_KIND = {source.kind: source for source in SOURCES}
