"""A player's pass: their own link (``/me/<private token>/``), printed as a QR code on a
pass card and shown at the desk, which scans or types it to check the player in.

Here the pieces the desk's services share: the link built from the site's address, the
token read back out of whatever the desk scanned or typed (the link, or the token alone),
the fingerprint a reissue keeps of the old token (so that a revoked pass is told apart
from a mistyped one without keeping the token itself), and who holds a token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tournaments.models import Entrant, EntrantPlayer, Event, EventLog, Player, RosterLog
from tournaments.services.passes import ENTRANT_REISSUE, PLAYER_REISSUE, token_fingerprint

__all__ = [
    "ENTRANT_REISSUE",
    "PLAYER_REISSUE",
    "PassHolder",
    "pass_holder",
    "private_link",
    "private_path",
    "token_fingerprint",
    "token_from_pass",
    "written_link",
]

PRIVATE_PATH = "/me/{token}/"
# What a private token looks like (``tokens.new_private_token``: 22 URL-safe characters;
# a little room either way, so a reader of an older or newer length still answers).
TOKEN_SHAPE = re.compile(r"[-\w]{16,32}")
PASS_LONGEST = 300  # a link with a long address; anything longer is not a pass


def private_path(token: str) -> str:
    return PRIVATE_PATH.format(token=token)


def private_link(site: str, token: str) -> str:
    """A player's own link, absolute: ``site`` is ``printouts.sources.site_address``."""
    return site.rstrip("/") + private_path(token)


def written_link(link: str) -> str:
    """The link as printed for typing: without ``https://`` (phones add it)."""
    return re.sub(r"^https?://", "", link)


def token_from_pass(text: str) -> str | None:
    """The private token in what the desk scanned or typed: a link holding ``/me/<token>``
    (with or without the site's address), or the token alone; ``None`` if neither."""
    text = text.strip()
    if not text or len(text) > PASS_LONGEST:
        return None
    found = re.search(r"/me/([^/?#\s]+)", text)
    token = found.group(1) if found else text.strip("/")
    return token if TOKEN_SHAPE.fullmatch(token) else None


@dataclass(frozen=True)
class PassHolder:
    """Whose pass a token is, as far as ``event`` is concerned."""

    entrant: Entrant | None = None  # the entrant of this event the pass checks in
    player: Player | None = None  # a roster player's pass (a club night's)
    other_event: bool = False  # an entrant of another event
    not_entered: bool = False  # a roster player not entered in this event
    revoked: bool = False  # a token reissued since


def pass_holder(*, event: Event, token: str) -> PassHolder:
    """Who holds ``token``, read for a check-in at ``event``."""
    entrant = Entrant.objects.filter(private_token=token).first()
    if entrant is not None:
        if entrant.event_id != event.pk:
            return PassHolder(other_event=True)
        return PassHolder(entrant=entrant)
    player = Player.objects.filter(private_token=token).first()
    if player is not None:
        while player.merged_into_id is not None and player.merged_into is not None:
            player = player.merged_into
        link = (
            EntrantPlayer.objects.filter(player=player, entrant__event=event)
            .select_related("entrant")
            .first()
        )
        if link is None:
            night = getattr(event, "club_night", None)
            mine = night is not None and night.roster_id == player.roster_id
            return PassHolder(player=player, not_entered=mine, other_event=not mine)
        return PassHolder(entrant=link.entrant, player=player)
    fingerprint = token_fingerprint(token)
    revoked = EventLog.objects.filter(
        event=event, action=ENTRANT_REISSUE, before__fingerprint=fingerprint
    ).exists()
    night = getattr(event, "club_night", None)
    if not revoked and night is not None:
        revoked = RosterLog.objects.filter(
            roster_id=night.roster_id, action=PLAYER_REISSUE, before__fingerprint=fingerprint
        ).exists()
    return PassHolder(revoked=revoked)
