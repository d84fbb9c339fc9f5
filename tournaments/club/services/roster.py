"""The roster: its players added, imported from a list of names, renamed, merged;
and the roster's log, which every change to the club writes."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils.translation import gettext

from common.folding import folded
from scoring.engines.base import N_, Problem, text_problem
from tournaments.club.errors import ClubError
from tournaments.club.selectors import NameMatch, live_players, players_match
from tournaments.club.services.ratings import ratings_rebuild
from tournaments.models import EntrantPlayer, Player, Roster, RosterLog
from tournaments.models.tokens import new_private_token
from tournaments.services.change import ActingUser
from tournaments.services.passes import PLAYER_REISSUE, token_fingerprint

# Who makes a change at the desk: the signed-in director (a signed-out user is recorded
# as nobody).

NAME_LONGEST = 40
CONTACT_LONGEST = 120
MOST_IMPORTED = 2000


def _user(user: ActingUser) -> User | None:
    return user if isinstance(user, User) and user.is_authenticated else None


def roster_log(
    roster: Roster,
    action: str,
    user: ActingUser,
    *,
    before: Any = None,
    after: Any = None,
) -> None:
    RosterLog.objects.create(
        roster=roster, action=action, user=_user(user), before=before, after=after
    )


def roster_for(*, owner: User | AnonymousUser) -> Roster:
    """The director's roster, made on first use (``owner``: the signed-in director, the
    only one the desk's door lets in)."""
    assert isinstance(owner, User), "a roster belongs to a signed-in director"
    roster, _ = Roster.objects.get_or_create(
        owner=owner,
        defaults={"name": gettext("{user}'s club").format(user=owner.get_username())},
    )
    return roster


def contact_too_long() -> Problem:
    return Problem(
        N_("the contact is at most {longest} characters"),
        None,
        "contact",
        {"longest": CONTACT_LONGEST},
    )


def name_problems(name: str, field: str) -> list[Problem]:
    name = name.strip()
    if not name:
        return [Problem(N_("the name is empty"), field=field)]
    if len(name) > NAME_LONGEST:
        return [
            Problem(
                N_("the name is at most {longest} characters"),
                None,
                field,
                {"longest": NAME_LONGEST},
            )
        ]
    if problem := text_problem(name, NAME_LONGEST):
        return [Problem(N_("the name {problem}"), None, field, {"problem": problem})]
    return []


def player_create(
    *,
    roster: Roster,
    name: str,
    contact: str = "",
    user: ActingUser = None,
    allow_same: bool = False,
) -> Player:
    """Add a player to the roster; a name already there (case and accents folded) is
    refused unless ``allow_same`` (two people can share a name)."""
    problems = name_problems(name, "name")
    if len(contact.strip()) > CONTACT_LONGEST:
        problems.append(contact_too_long())
    if problems:
        raise ClubError(problems)
    with transaction.atomic():
        if not allow_same and _name_taken(roster, name):
            raise ClubError.single(
                N_("{name} is already on the roster"), field="name", name=name.strip()
            )
        player = Player.objects.create(
            roster=roster, name=name.strip(), folded=folded(name), contact=contact.strip()
        )
        roster_log(roster, "player_create", user, after={"id": player.pk, "name": player.name})
    return player


def _csv_names(text: str) -> tuple[list[tuple[int, str, str]], list[Problem]]:
    rows: list[tuple[int, str, str]] = []
    problems: list[Problem] = []
    for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if number == 1 and folded(cells[0]) == "name":
            continue  # a heading line
        field = f"line {number}"
        problems.extend(
            Problem(N_("line {number}: {problem}"), None, field, {"number": number, "problem": p})
            for p in name_problems(cells[0], field)
        )
        contact = cells[1] if len(cells) > 1 else ""
        if len(contact) > CONTACT_LONGEST:
            problems.append(
                Problem(
                    N_("line {number}: {problem}"),
                    None,
                    field,
                    {"number": number, "problem": contact_too_long()},
                )
            )
        rows.append((number, cells[0], contact))
    if len(rows) > MOST_IMPORTED:
        problems.append(
            Problem(N_("at most {most} names at once"), None, "file", {"most": MOST_IMPORTED})
        )
    if not rows and not problems:
        problems.append(Problem(N_("the file holds no names"), field="file"))
    return rows, problems


@dataclass(frozen=True)
class ImportResult:
    created: list[Player]
    found: list[Player]
    ambiguous: list[NameMatch]  # nothing was written when this is not empty


def roster_import(
    *,
    roster: Roster,
    text: str,
    choices: Mapping[int, str] | None = None,
    user: ActingUser = None,
) -> ImportResult:
    """Read ``name[,contact]`` lines: a name on the roster (case and accents folded) is that
    player, a new name a new player. A name matching several players is asked about:
    ``choices`` maps its line to a player id, or to "new"; while one is unanswered nothing
    is written and the result lists the questions. All or nothing."""
    rows, problems = _csv_names(text)
    if problems:
        raise ClubError(problems)
    choices = choices or {}
    with transaction.atomic():
        Roster.objects.select_for_update().filter(pk=roster.pk).first()
        matches = players_match(roster=roster, names=rows)
        open_questions = [m for m in matches if m.status == "ambiguous" and m.line not in choices]
        if open_questions:
            return ImportResult([], [], open_questions)
        created: list[Player] = []
        found: list[Player] = []
        made: dict[str, Player] = {}
        for match in matches:
            choice = choices.get(match.line)
            if match.status == "found" and choice is None:
                found.append(match.players[0])
                continue
            if choice is not None and choice != "new":
                chosen = [p for p in match.players if str(p.pk) == str(choice)]
                if not chosen:
                    raise ClubError.single(
                        N_("line {line}: choose one of the players named {name}"),
                        field=f"line {match.line}",
                        line=match.line,
                        name=match.name,
                    )
                found.append(chosen[0])
                continue
            key = folded(match.name)
            if key in made and match.status == "new":
                found.append(made[key])  # the same new name twice in one file: one player
                continue
            player = Player.objects.create(
                roster=roster, name=match.name, folded=key, contact=match.contact
            )
            made[key] = player
            created.append(player)
        roster_log(
            roster,
            "roster_import",
            user,
            after={"created": [p.name for p in created], "found": [p.pk for p in found]},
        )
    return ImportResult(created, found, [])


def _name_taken(roster: Roster, name: str, *, but: Player | None = None) -> bool:
    """Whether another live player of the roster has this name (case and accents folded)."""
    others = live_players(roster).filter(folded=folded(name))
    if but is not None:
        others = others.exclude(pk=but.pk)
    return others.exists()


def player_update(*, player: Player, name: str, contact: str, user: ActingUser = None) -> Player:
    problems = name_problems(name, "name")
    if len(contact.strip()) > CONTACT_LONGEST:
        problems.append(contact_too_long())
    if problems:
        raise ClubError(problems)
    with transaction.atomic():
        before = {"name": player.name, "contact": player.contact}
        player.name, player.folded, player.contact = name.strip(), folded(name), contact.strip()
        player.save(update_fields=["name", "folded", "contact"])
        roster_log(player.roster, "player_update", user, before=before, after={"name": player.name})
    return player


def player_rename(
    *,
    player: Player,
    name: str,
    user: ActingUser = None,
    allow_same: bool = False,
) -> Player:
    """Give a roster player a new name (and the folded name matching reads). A name
    another player of the roster has (case and accents folded) is refused unless
    ``allow_same`` (two people can share a name), as when a player is added."""
    if problems := name_problems(name, "name"):
        raise ClubError(problems)
    with transaction.atomic():
        roster = Roster.objects.select_for_update().get(pk=player.roster_id)
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.merged_into_id:
            raise ClubError.single(N_("that player was merged into another"), field="name")
        if name.strip() == player.name:
            return player
        if not allow_same and _name_taken(roster, name, but=player):
            raise ClubError.single(
                N_(
                    "{name} is already on the roster: tick the box if this is "
                    "a different person of the same name"
                ),
                field="name",
                name=name.strip(),
            )
        before = {"id": player.pk, "name": player.name}
        player.name, player.folded = name.strip(), folded(name)
        player.save(update_fields=["name", "folded"])
        roster_log(
            roster,
            "player_rename",
            user,
            before=before,
            after={"id": player.pk, "name": player.name},
        )
    return player


def player_link_reissue(*, player: Player, user: ActingUser = None) -> Player:
    """Revoke a roster player's own link and give them a new one (a new private token),
    across every night of the roster. The roster's log keeps a fingerprint of the old
    token (never the token), so that a revoked pass is recognised at the desk."""
    with transaction.atomic():
        roster = Roster.objects.select_for_update().get(pk=player.roster_id)
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.merged_into_id:
            raise ClubError.single(N_("that player was merged into another"), field="player")
        old = player.private_token
        player.private_token = new_private_token()
        player.save(update_fields=["private_token"])
        roster_log(
            roster,
            PLAYER_REISSUE,
            user,
            before={"id": player.pk, "name": player.name, "fingerprint": token_fingerprint(old)},
            after={"id": player.pk, "name": player.name},
        )
    return player


def player_merge(*, keep: Player, duplicate: Player, user: ActingUser = None) -> Player:
    """Fold ``duplicate`` into ``keep``: their entries, nights and rated games become
    ``keep``'s, and the roster's ratings are rebuilt with the history following."""
    if keep.roster_id != duplicate.roster_id:
        raise ClubError.single(N_("both players must be on the same roster"), field="duplicate")
    if keep.pk == duplicate.pk:
        raise ClubError.single(N_("choose two different players"), field="duplicate")
    if keep.merged_into_id or duplicate.merged_into_id:
        raise ClubError.single(N_("that player was already merged"), field="duplicate")
    with transaction.atomic():
        roster = Roster.objects.select_for_update().get(pk=keep.roster_id)
        clashes = set(
            EntrantPlayer.objects.filter(player=keep).values_list("entrant__event_id", flat=True)
        ) & set(
            EntrantPlayer.objects.filter(player=duplicate).values_list(
                "entrant__event_id", flat=True
            )
        )
        if clashes:
            raise ClubError.single(
                N_("both players played in the same event: they are two people"), field="duplicate"
            )
        EntrantPlayer.objects.filter(player=duplicate).update(player=keep)
        Player.objects.filter(merged_into=duplicate).update(merged_into=keep)
        duplicate.merged_into = keep
        duplicate.mu = duplicate.sigma = None
        duplicate.rated_games = 0
        duplicate.save(update_fields=["merged_into", "mu", "sigma", "rated_games"])
        if not keep.contact and duplicate.contact:
            keep.contact = duplicate.contact
            keep.save(update_fields=["contact"])
        roster_log(
            roster,
            "player_merge",
            user,
            before={"keep": keep.pk, "duplicate": duplicate.pk, "name": duplicate.name},
            after={"keep": keep.pk},
        )
        ratings_rebuild(roster)
    keep.refresh_from_db()
    return keep
