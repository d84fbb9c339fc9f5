"""Club nights: an event made a night of its director's roster, its entrants linked to
the roster's players, its games rated."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import F

from common.folding import folded
from scoring.engines.base import N_
from tournaments.club.adapter import event_game_ids
from tournaments.club.errors import ClubError
from tournaments.club.selectors import live_players
from tournaments.club.services.ratings import rate_game
from tournaments.club.services.roster import roster_for, roster_log
from tournaments.models import ClubNight, Entrant, EntrantPlayer, Event, Player, Roster, Season
from tournaments.services.change import ActingUser


@dataclass(frozen=True)
class NightLinks:
    night: ClubNight
    linked: int
    created: list[Player]
    ambiguous: list[tuple[Entrant, int, tuple[Player, ...]]]  # entrant, member, candidates


def club_night_set(
    *,
    event: Event,
    season: Season | None = None,
    rated: bool = True,
    balanced: bool = False,
    user: ActingUser = None,
) -> NightLinks:
    """Make the event a night of its director's roster (in ``season`` when given): every
    entrant (every member of a fixed team) not linked yet is linked to the roster player
    of the same folded name, or to a new one; a name several players share is left for
    the director (``entrant_link``). The event's finished games are rated (or unrated)."""
    roster = roster_for(owner=event.owner)
    if season is not None and season.roster_id != roster.pk:
        raise ClubError.single(N_("that season belongs to another roster"), field="season")
    with transaction.atomic():
        Roster.objects.select_for_update().filter(pk=roster.pk).first()
        night, _ = ClubNight.objects.update_or_create(
            event=event,
            defaults={"roster": roster, "season": season, "rated": rated, "balanced": balanced},
        )
        linked, created, ambiguous = _link_entrants(roster, event)
        roster_log(
            roster,
            "club_night_set",
            user,
            after={
                "event": event.pk,
                "season": season.pk if season else None,
                "rated": rated,
                "balanced": balanced,
            },
        )
        if season is not None:
            Season.objects.filter(pk=season.pk).update(revision=F("revision") + 1)
        for game_id in event_game_ids(event):
            rate_game(game_id)
    return NightLinks(night, linked, created, ambiguous)


def _link_entrants(
    roster: Roster, event: Event
) -> tuple[int, list[Player], list[tuple[Entrant, int, tuple[Player, ...]]]]:
    done = set(
        EntrantPlayer.objects.filter(entrant__event=event).values_list("entrant_id", "member")
    )
    by_fold: dict[str, list[Player]] = {}
    for player in live_players(roster):
        by_fold.setdefault(player.folded, []).append(player)
    linked = 0
    created: list[Player] = []
    ambiguous: list[tuple[Entrant, int, tuple[Player, ...]]] = []
    for entrant in event.entrants.order_by("pk"):
        names = list(entrant.members) or [entrant.name]
        for member, name in enumerate(names):
            if (entrant.pk, member) in done:
                continue
            found = by_fold.get(folded(name), [])
            if len(found) > 1:
                ambiguous.append((entrant, member, tuple(found)))
                continue
            if found:
                player = found[0]
            else:
                player = Player.objects.create(roster=roster, name=name, folded=folded(name))
                by_fold[player.folded] = [player]
                created.append(player)
            EntrantPlayer.objects.create(entrant=entrant, member=member, player=player)
            linked += 1
    return linked, created, ambiguous


def entrant_link(
    *,
    entrant: Entrant,
    player: Player,
    member: int = 0,
    user: ActingUser = None,
) -> None:
    """Say which roster player an entrant (or a member of a fixed team) is."""
    night = ClubNight.objects.filter(event_id=entrant.event_id).first()
    if night is None or night.roster_id != player.roster_id:
        raise ClubError.single(N_("the player is not on this event's roster"), field="player")
    if player.merged_into_id:
        raise ClubError.single(N_("that player was merged into another"), field="player")
    if not 0 <= member < max(len(entrant.members), 1):
        raise ClubError.single(N_("no such member of the team"), field="member")
    with transaction.atomic():
        Roster.objects.select_for_update().filter(pk=night.roster_id).first()
        EntrantPlayer.objects.update_or_create(
            entrant=entrant, member=member, defaults={"player": player}
        )
        roster_log(
            night.roster,
            "entrant_link",
            user,
            after={"entrant": entrant.pk, "member": member, "player": player.pk},
        )
        for game_id in event_game_ids(entrant.event):
            rate_game(game_id)
