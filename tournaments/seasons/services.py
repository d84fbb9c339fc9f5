"""Changes to the roster, seasons and ratings: each one atomic and logged.

Ratings are a projection of the rated games. ``ratings_game_changed`` brings one table
game's rating up to date (re-rating from that game on when it is not the last);
``ratings_recompute`` rebuilds a roster's ratings from its games. Both give the same
numbers.
"""

from __future__ import annotations

import csv
import gc
import io
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F

from common.folding import folded
from scoring.engines.base import Problem, text_problem
from tournaments.models import (
    ClubNight,
    Entrant,
    EntrantPlayer,
    Event,
    Player,
    RatedGame,
    RatingStep,
    Roster,
    RosterLog,
    Season,
)
from tournaments.seasons.adapter import (
    core_game,
    event_game_ids,
    game_key,
    game_to_rate,
    roster_rated_games,
)
from tournaments.seasons.core.ratings import GameKey, Replay, Skill, Step, replay, rerate_from
from tournaments.seasons.core.table import Counting, SeasonRule, Tiebreak
from tournaments.seasons.skill import INITIAL, RATE

NAME_LONGEST = 40
CONTACT_LONGEST = 120
SEASON_NAME_LONGEST = 80
MOST_IMPORTED = 2000


class SeasonError(Exception):
    """A change the director asked for that cannot be made; ``problems`` name the field."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    @classmethod
    def single(cls, message: str, *, field: str | None = None) -> SeasonError:
        return cls([Problem(message, field=field)])


def _user(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def _log(roster: Roster, action: str, user: Any, *, before: Any = None, after: Any = None) -> None:
    RosterLog.objects.create(
        roster=roster, action=action, user=_user(user), before=before, after=after
    )


# --------------------------------------------------------------------------- the roster


def roster_for(*, owner: Any) -> Roster:
    """The director's roster, made on first use."""
    roster, _ = Roster.objects.get_or_create(
        owner=owner, defaults={"name": f"{owner.get_username()}'s club"}
    )
    return roster


def _name_problems(name: str, field: str) -> list[Problem]:
    name = name.strip()
    if not name:
        return [Problem("the name is empty", field=field)]
    if len(name) > NAME_LONGEST:
        return [Problem(f"the name is at most {NAME_LONGEST} characters", field=field)]
    if problem := text_problem(name, NAME_LONGEST):
        return [Problem(f"the name {problem}", field=field)]
    return []


def player_create(
    *, roster: Roster, name: str, contact: str = "", user: Any = None, allow_same: bool = False
) -> Player:
    """Add a player to the roster; a name already there (case and accents folded) is
    refused unless ``allow_same`` (two people can share a name)."""
    problems = _name_problems(name, "name")
    if len(contact.strip()) > CONTACT_LONGEST:
        problems.append(
            Problem(f"the contact is at most {CONTACT_LONGEST} characters", field="contact")
        )
    if problems:
        raise SeasonError(problems)
    with transaction.atomic():
        if not allow_same and _name_taken(roster, name):
            raise SeasonError.single(f"{name.strip()} is already on the roster", field="name")
        player = Player.objects.create(
            roster=roster, name=name.strip(), folded=folded(name), contact=contact.strip()
        )
        _log(roster, "player_create", user, after={"id": player.pk, "name": player.name})
    return player


def _live(roster: Roster) -> Any:
    return Player.objects.filter(roster=roster, merged_into__isnull=True)


@dataclass(frozen=True)
class NameMatch:
    """What a name typed in matches on the roster: one player, nobody, or several."""

    line: int
    name: str
    contact: str
    players: tuple[Player, ...]

    @property
    def status(self) -> str:
        return {0: "new", 1: "found"}.get(len(self.players), "ambiguous")


def players_match(*, roster: Roster, names: Iterable[tuple[int, str, str]]) -> list[NameMatch]:
    """Each (line, name, contact) against the roster, folding case and accents."""
    by_fold: dict[str, list[Player]] = {}
    for player in _live(roster):
        by_fold.setdefault(player.folded, []).append(player)
    return [
        NameMatch(line, name.strip(), contact.strip(), tuple(by_fold.get(folded(name), ())))
        for line, name, contact in names
    ]


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
            Problem(f"line {number}: {p.message}", field=field)
            for p in _name_problems(cells[0], field)
        )
        contact = cells[1] if len(cells) > 1 else ""
        if len(contact) > CONTACT_LONGEST:
            problems.append(
                Problem(
                    f"line {number}: the contact is at most {CONTACT_LONGEST} characters",
                    field=field,
                )
            )
        rows.append((number, cells[0], contact))
    if len(rows) > MOST_IMPORTED:
        problems.append(Problem(f"at most {MOST_IMPORTED} names at once", field="file"))
    if not rows and not problems:
        problems.append(Problem("the file holds no names", field="file"))
    return rows, problems


@dataclass(frozen=True)
class ImportResult:
    created: list[Player]
    found: list[Player]
    ambiguous: list[NameMatch]  # nothing was written when this is not empty


def roster_import(
    *, roster: Roster, text: str, choices: Mapping[int, str] | None = None, user: Any = None
) -> ImportResult:
    """Read ``name[,contact]`` lines: a name on the roster (case and accents folded) is that
    player, a new name a new player. A name matching several players is asked about:
    ``choices`` maps its line to a player id, or to "new"; while one is unanswered nothing
    is written and the result lists the questions. All or nothing."""
    rows, problems = _csv_names(text)
    if problems:
        raise SeasonError(problems)
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
                    raise SeasonError.single(
                        f"line {match.line}: choose one of the players named {match.name}",
                        field=f"line {match.line}",
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
        _log(
            roster,
            "roster_import",
            user,
            after={"created": [p.name for p in created], "found": [p.pk for p in found]},
        )
    return ImportResult(created, found, [])


def _name_taken(roster: Roster, name: str, *, but: Player | None = None) -> bool:
    """Whether another live player of the roster has this name (case and accents folded)."""
    others = _live(roster).filter(folded=folded(name))
    if but is not None:
        others = others.exclude(pk=but.pk)
    return others.exists()


def player_update(*, player: Player, name: str, contact: str, user: Any = None) -> Player:
    problems = _name_problems(name, "name")
    if len(contact.strip()) > CONTACT_LONGEST:
        problems.append(
            Problem(f"the contact is at most {CONTACT_LONGEST} characters", field="contact")
        )
    if problems:
        raise SeasonError(problems)
    with transaction.atomic():
        before = {"name": player.name, "contact": player.contact}
        player.name, player.folded, player.contact = name.strip(), folded(name), contact.strip()
        player.save(update_fields=["name", "folded", "contact"])
        _log(player.roster, "player_update", user, before=before, after={"name": player.name})
    return player


def player_rename(
    *, player: Player, name: str, user: Any = None, allow_same: bool = False
) -> Player:
    """Give a roster player a new name (and the folded name matching reads). A name
    another player of the roster has (case and accents folded) is refused unless
    ``allow_same`` (two people can share a name), as when a player is added."""
    if problems := _name_problems(name, "name"):
        raise SeasonError(problems)
    with transaction.atomic():
        roster = Roster.objects.select_for_update().get(pk=player.roster_id)
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.merged_into_id:
            raise SeasonError.single("that player was merged into another", field="name")
        if name.strip() == player.name:
            return player
        if not allow_same and _name_taken(roster, name, but=player):
            raise SeasonError.single(
                f"{name.strip()} is already on the roster: tick the box if this is "
                "a different person of the same name",
                field="name",
            )
        before = {"id": player.pk, "name": player.name}
        player.name, player.folded = name.strip(), folded(name)
        player.save(update_fields=["name", "folded"])
        _log(
            roster,
            "player_rename",
            user,
            before=before,
            after={"id": player.pk, "name": player.name},
        )
    return player


def player_merge(*, keep: Player, duplicate: Player, user: Any = None) -> Player:
    """Fold ``duplicate`` into ``keep``: their entries, nights and rated games become
    ``keep``'s, and the roster's ratings are rebuilt with the history following."""
    if keep.roster_id != duplicate.roster_id:
        raise SeasonError.single("both players must be on the same roster", field="duplicate")
    if keep.pk == duplicate.pk:
        raise SeasonError.single("choose two different players", field="duplicate")
    if keep.merged_into_id or duplicate.merged_into_id:
        raise SeasonError.single("that player was already merged", field="duplicate")
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
            raise SeasonError.single(
                "both players played in the same event: they are two people", field="duplicate"
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
        _log(
            roster,
            "player_merge",
            user,
            before={"keep": keep.pk, "duplicate": duplicate.pk, "name": duplicate.name},
            after={"keep": keep.pk},
        )
        _ratings_rebuild(roster)
    keep.refresh_from_db()
    return keep


# --------------------------------------------------------------------------- seasons


def season_rule(season: Season) -> SeasonRule:
    """The season's rule as the core reads it."""
    return SeasonRule(
        counting=Counting(season.counting),
        best=season.best,
        drop=season.drop,
        min_nights=season.min_nights,
        place_points=tuple(int(p) for p in season.place_points) or SeasonRule().place_points,
        attendance=season.attendance,
        tiebreaks=tuple(Tiebreak(t) for t in season.tiebreaks),
    )


def _rule_from(data: Mapping[str, Any]) -> SeasonRule:
    problems: list[Problem] = []
    try:
        counting = Counting(data.get("counting", Counting.ALL))
    except ValueError:
        problems.append(Problem("choose how nights add up", field="counting"))
        counting = Counting.ALL
    try:
        tiebreaks = tuple(Tiebreak(t) for t in data.get("tiebreaks", SeasonRule().tiebreaks))
    except ValueError:
        problems.append(Problem("an unknown tiebreak", field="tiebreaks"))
        tiebreaks = ()
    numbers: dict[str, int] = {}
    for name in ("best", "drop", "min_nights", "attendance"):
        try:
            numbers[name] = int(data.get(name) or 0)
        except (TypeError, ValueError):
            problems.append(Problem("a whole number is needed", field=name))
            numbers[name] = 0
    raw = data.get("place_points", SeasonRule().place_points)
    if isinstance(raw, str):
        raw = [p for p in raw.replace(",", " ").replace("-", " ").split() if p]
    try:
        points = tuple(int(p) for p in raw)
    except (TypeError, ValueError):
        problems.append(Problem("place points are whole numbers", field="place_points"))
        points = SeasonRule().place_points
    rule = SeasonRule(
        counting=counting,
        best=numbers["best"],
        drop=numbers["drop"],
        min_nights=numbers["min_nights"],
        place_points=points,
        attendance=numbers["attendance"],
        tiebreaks=tiebreaks,
    )
    problems.extend(rule.problems())
    if problems:
        raise SeasonError(problems)
    return rule


def season_create(
    *, roster: Roster, name: str, rule: Mapping[str, Any], user: Any = None
) -> Season:
    """A new season with its rule (chosen up front: it cannot change once a night is in)."""
    problems: list[Problem] = []
    if not name.strip() or len(name.strip()) > SEASON_NAME_LONGEST:
        problems.append(Problem(f"the name is 1 to {SEASON_NAME_LONGEST} characters", field="name"))
    try:
        parsed = _rule_from(rule)
    except SeasonError as error:
        problems.extend(error.problems)
    if problems:
        raise SeasonError(problems)
    with transaction.atomic():
        season = Season.objects.create(
            roster=roster,
            name=name.strip(),
            counting=parsed.counting.value,
            best=parsed.best,
            drop=parsed.drop,
            min_nights=parsed.min_nights,
            place_points=list(parsed.place_points),
            attendance=parsed.attendance,
            tiebreaks=[t.value for t in parsed.tiebreaks],
        )
        _log(roster, "season_create", user, after={"id": season.pk, "name": season.name})
    return season


# --------------------------------------------------------------------------- club nights


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
    user: Any = None,
) -> NightLinks:
    """Make the event a night of its director's roster (in ``season`` when given): every
    entrant (every member of a fixed team) not linked yet is linked to the roster player
    of the same folded name, or to a new one; a name several players share is left for
    the director (``entrant_link``). The event's finished games are rated (or unrated)."""
    roster = roster_for(owner=event.owner)
    if season is not None and season.roster_id != roster.pk:
        raise SeasonError.single("that season belongs to another roster", field="season")
    with transaction.atomic():
        Roster.objects.select_for_update().filter(pk=roster.pk).first()
        night, _ = ClubNight.objects.update_or_create(
            event=event,
            defaults={"roster": roster, "season": season, "rated": rated, "balanced": balanced},
        )
        linked, created, ambiguous = _link_entrants(roster, event)
        _log(
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
            _rate_game(game_id)
    return NightLinks(night, linked, created, ambiguous)


def _link_entrants(
    roster: Roster, event: Event
) -> tuple[int, list[Player], list[tuple[Entrant, int, tuple[Player, ...]]]]:
    done = set(
        EntrantPlayer.objects.filter(entrant__event=event).values_list("entrant_id", "member")
    )
    by_fold: dict[str, list[Player]] = {}
    for player in _live(roster):
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


def entrant_link(*, entrant: Entrant, player: Player, member: int = 0, user: Any = None) -> None:
    """Say which roster player an entrant (or a member of a fixed team) is."""
    night = ClubNight.objects.filter(event_id=entrant.event_id).first()
    if night is None or night.roster_id != player.roster_id:
        raise SeasonError.single("the player is not on this event's roster", field="player")
    if player.merged_into_id:
        raise SeasonError.single("that player was merged into another", field="player")
    if not 0 <= member < max(len(entrant.members), 1):
        raise SeasonError.single("no such member of the team", field="member")
    with transaction.atomic():
        Roster.objects.select_for_update().filter(pk=night.roster_id).first()
        EntrantPlayer.objects.update_or_create(
            entrant=entrant, member=member, defaults={"player": player}
        )
        _log(
            night.roster,
            "entrant_link",
            user,
            after={"entrant": entrant.pk, "member": member, "player": player.pk},
        )
        for game_id in event_game_ids(entrant.event):
            _rate_game(game_id)


# --------------------------------------------------------------------------- ratings


def _skills(players: Iterable[int]) -> dict[int, Skill]:
    """The players' ratings as they stand (a rating brought in counts as one)."""
    found: dict[int, Skill] = {}
    for pk, mu, sigma, base_mu, base_sigma in Player.objects.filter(
        pk__in=set(players)
    ).values_list("pk", "mu", "sigma", "base_mu", "base_sigma"):
        if mu is not None and sigma is not None:
            found[pk] = Skill(mu, sigma)
        elif base_mu is not None and base_sigma is not None:
            found[pk] = Skill(base_mu, base_sigma)
    return found


def _bases(roster: Roster) -> dict[int, Skill]:
    """Where each player's ratings start: a rating brought in, else the model's default."""
    return {
        pk: Skill(mu, sigma)
        for pk, mu, sigma in Player.objects.filter(
            roster=roster, base_mu__isnull=False, base_sigma__isnull=False
        ).values_list("pk", "base_mu", "base_sigma")
        if mu is not None and sigma is not None
    }


def _steps_from(roster_id: int, key: GameKey) -> list[Step]:
    """The stored steps of the roster's rated games from ``key`` on, in order."""
    rows = (
        RatingStep.objects.filter(
            rated_game__roster_id=roster_id, rated_game__played_at__gte=_moment(key)
        )
        .select_related("rated_game")
        .order_by(
            "rated_game__played_at",
            "rated_game__round_number",
            "rated_game__table_number",
            "rated_game__game_id",
            "pk",
        )
    )
    steps: list[Step] = []
    for row in rows:
        g = row.rated_game
        k = game_key(g.played_at, g.round_number, g.table_number, g.game_id)
        if k >= key:
            steps.append(
                Step(
                    k,
                    g.game_id,
                    row.player_id,
                    Skill(row.mu_before, row.sigma_before),
                    Skill(row.mu, row.sigma),
                )
            )
    return steps


def _store(roster_id: int, result: Replay, touched: Iterable[int]) -> None:
    games = {s.game for s in result.steps}
    rows = RatedGame.objects.filter(roster_id=roster_id)
    if len(games) < 1000:
        rows = rows.filter(game_id__in=games)
    ids = dict(rows.values_list("game_id", "pk"))
    _steps_insert(_step_rows(result, ids))
    touched = set(touched) | set(result.ratings)
    counts = dict(
        RatingStep.objects.filter(player_id__in=touched)
        .values("player_id")
        .annotate(n=Count("pk"))
        .values_list("player_id", "n")
    )
    updates: list[tuple[float | None, float | None, int, int]] = []
    for pk, base_mu, base_sigma in Player.objects.filter(pk__in=touched).values_list(
        "pk", "base_mu", "base_sigma"
    ):
        n = counts.get(pk, 0)
        skill = result.ratings.get(pk)
        if n and skill is not None:
            updates.append((skill.mu, skill.sigma, n, pk))
        elif n:
            continue  # rated, and not touched by this replay: its rating stands
        else:
            updates.append((base_mu, base_sigma, 0, pk))
    _ratings_save(updates)


def _rate_game(game_id: int) -> str:
    """Inside a transaction holding the roster: bring one game's rating up to date."""
    want = game_to_rate(game_id)
    existing = RatedGame.objects.filter(game_id=game_id).first()
    roster_id = want.roster_id or (existing.roster_id if existing else None)
    if roster_id is None:
        return "not rated"
    new = None
    if want.sides and want.played_at is not None:
        new_key = game_key(want.played_at, want.round_number, want.table_number, game_id)
        new = (new_key, [list(s) for s in want.sides], list(want.places))
    old = None
    if existing is not None:
        old_core = core_game(existing)
        old = (old_core.key, [list(s) for s in old_core.sides], list(old_core.places))
    if old == new and (existing is None or existing.roster_id == roster_id):
        return "unchanged"
    keys = [k[0] for k in (old, new) if k is not None]
    start = min(keys)
    undone = _steps_from(roster_id, start)
    RatingStep.objects.filter(
        rated_game__roster_id=roster_id,
        rated_game__game_id__in={s.game for s in undone},
    ).delete()
    if existing is not None:
        existing.delete()
    if new is not None and want.played_at is not None:
        RatedGame.objects.create(
            roster_id=roster_id,
            game_id=game_id,
            played_at=want.played_at,
            round_number=want.round_number,
            table_number=want.table_number,
            sides=new[1],
            places=new[2],
        )
    tail = [
        g
        for g in map(
            core_game,
            RatedGame.objects.filter(roster_id=roster_id, played_at__gte=_moment(start)),
        )
        if g.key >= start
    ]
    players = {p for g in tail for side in g.sides for p in side} | {s.player for s in undone}
    result = rerate_from(
        current=_skills(players), undone=undone, tail=tail, rate=RATE, initial=INITIAL
    )
    _store(roster_id, result, players)
    return "rated"


def _moment(key: GameKey) -> datetime:
    """A moment no later than the game of ``key`` was played (its key rounds the time)."""
    return datetime.fromtimestamp(key[0] / 1_000_000, tz=UTC) - timedelta(seconds=1)


def ratings_concern(*, game_id: int) -> bool:
    """Whether a change to this game can move a rating: its event is a rated club night,
    or it was rated before (most tournament games are neither: no task is sent)."""
    return (
        ClubNight.objects.filter(rated=True, event__rounds__tables__game_id=game_id).exists()
        or RatedGame.objects.filter(game_id=game_id).exists()
    )


def ratings_game_changed(*, game_id: int) -> str:
    """Bring one table game's ratings up to date; safe to run again (then "unchanged")."""
    want = game_to_rate(game_id)
    existing_roster = (
        RatedGame.objects.filter(game_id=game_id).values_list("roster_id", flat=True).first()
    )
    roster_id = want.roster_id or existing_roster
    if roster_id is None:
        return "not rated"
    with transaction.atomic():
        Roster.objects.select_for_update().filter(pk=roster_id).first()
        return _rate_game(game_id)


def _ratings_rebuild(roster: Roster) -> int:
    """Inside a transaction holding the roster: rated games read again from the games,
    every rating replayed from nothing."""
    RatedGame.objects.filter(roster=roster).delete()
    game_ids = [
        g
        for event_id in ClubNight.objects.filter(roster=roster, rated=True).values_list(
            "event_id", flat=True
        )
        for g in event_game_ids(Event(pk=event_id))
    ]
    rows = []
    for game_id in game_ids:
        want = game_to_rate(game_id)
        if want.sides and want.played_at is not None and want.roster_id == roster.pk:
            rows.append(
                RatedGame(
                    roster=roster,
                    game_id=game_id,
                    played_at=want.played_at,
                    round_number=want.round_number,
                    table_number=want.table_number,
                    sides=[list(s) for s in want.sides],
                    places=list(want.places),
                )
            )
    RatedGame.objects.bulk_create(rows, batch_size=2000)
    return _ratings_replay(roster)


STEP_COLUMNS = ("rated_game_id", "player_id", "mu_before", "sigma_before", "mu", "sigma")
STEP_TYPES = ("int8", "int8", "float8", "float8", "float8", "float8")
StepRow = tuple[int, int, float, float, float, float]


def _step_rows(result: Replay, ids: Mapping[int, int]) -> list[StepRow]:
    """The replay's steps as rows of RatingStep, in game order (``ids``: game -> row id)."""
    return [
        (ids[s.game], s.player, s.before.mu, s.before.sigma, s.after.mu, s.after.sigma)
        for s in result.steps
    ]


def _copy_steps(cursor: Any, table: str, rows: Iterable[StepRow]) -> None:
    """Rows sent with one binary COPY: no float written out as text and read back."""
    columns = ", ".join(STEP_COLUMNS)
    with cursor.copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(STEP_TYPES)
        for row in rows:
            copy.write_row(row)


def _steps_insert(rows: Sequence[StepRow]) -> None:
    """Rating steps written in bulk: one binary COPY on PostgreSQL (tens of thousands of
    rows at a rebuild), one bulk insert elsewhere."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            _copy_steps(cursor, connection.ops.quote_name(RatingStep._meta.db_table), rows)
        return
    RatingStep.objects.bulk_create(
        (RatingStep(**dict(zip(STEP_COLUMNS, row, strict=True))) for row in rows),
        batch_size=2000,
    )


def _steps_replace(roster: Roster, rows: Sequence[StepRow]) -> None:
    """Inside a transaction holding the roster: its rating steps made ``rows`` (every step
    of its history, in game order).

    On PostgreSQL, when the stored steps are the same games and players as ``rows`` (a
    replay of the stored games: always, unless the history was out of step), each step
    is rewritten in place, and only where its numbers changed. Nothing is deleted and
    inserted again, so no foreign key is checked again (on PostgreSQL that check, one
    query a key at commit, cost more than the writing). Otherwise, and on other
    databases, the roster's steps are deleted and ``rows`` inserted.
    """
    if connection.vendor != "postgresql":
        RatingStep.objects.filter(rated_game__roster=roster).delete()
        _steps_insert(rows)
        return
    quote = connection.ops.quote_name
    steps = quote(RatingStep._meta.db_table)
    games = quote(RatedGame._meta.db_table)
    new = "tablescore_new_rating_steps"
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE {new} (rated_game_id bigint, player_id bigint,"
            " mu_before float8, sigma_before float8, mu float8, sigma float8) ON COMMIT DROP"
        )
        _copy_steps(cursor, new, rows)
        # Stored steps whose game and player is no new step's, and new steps not stored.
        cursor.execute(
            "SELECT count(*) FILTER (WHERE n.player_id IS NULL),"
            " count(*) FILTER (WHERE s.player_id IS NULL)"
            f" FROM (SELECT s.rated_game_id, s.player_id FROM {steps} s"
            f" JOIN {games} g ON g.id = s.rated_game_id WHERE g.roster_id = %s) s"
            f" FULL JOIN {new} n"
            " ON n.rated_game_id = s.rated_game_id AND n.player_id = s.player_id",
            [roster.pk],
        )
        gone, added = cursor.fetchone()
        if gone or added:
            cursor.execute(
                f"DELETE FROM {steps} s USING {games} g"
                " WHERE g.id = s.rated_game_id AND g.roster_id = %s",
                [roster.pk],
            )
            _copy_steps(cursor, steps, rows)
        else:
            cursor.execute(
                f"UPDATE {steps} s SET mu_before = n.mu_before, sigma_before = n.sigma_before,"
                " mu = n.mu, sigma = n.sigma"
                f" FROM {new} n"
                " WHERE s.rated_game_id = n.rated_game_id AND s.player_id = n.player_id"
                " AND (s.mu_before, s.sigma_before, s.mu, s.sigma)"
                " IS DISTINCT FROM (n.mu_before, n.sigma_before, n.mu, n.sigma)"
            )
        cursor.execute(f"DROP TABLE {new}")


def _ratings_save(rows: Sequence[tuple[float | None, float | None, int, int]]) -> None:
    """Players' ratings written in one batch: (mu, sigma, rated games, player id) each."""
    table = connection.ops.quote_name(Player._meta.db_table)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {table} SET mu = %s, sigma = %s, rated_games = %s WHERE id = %s", rows
        )


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector held off: a rebuild makes a few hundred thousand small
    objects and no cycles, and the collector, walking them again and again as they pile
    up, took nearly half of the rebuild's CPU time."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _ratings_replay(roster: Roster) -> int:
    """Inside a transaction holding the roster: every rating replayed from nothing, the
    history rewritten (``_steps_replace``) and the ratings saved in one batch."""
    with _collector_paused():
        rows = roster_rated_games(roster.pk)
        result = replay(
            (game for _, game in rows), rate=RATE, initial=INITIAL, start=_bases(roster)
        )
        _steps_replace(roster, _step_rows(result, {game.game: pk for pk, game in rows}))
    counts = Counter(s.player for s in result.steps)
    saved: list[tuple[float | None, float | None, int, int]] = []
    for pk, base_mu, base_sigma in Player.objects.filter(roster=roster).values_list(
        "pk", "base_mu", "base_sigma"
    ):
        skill = result.ratings.get(pk) if counts[pk] else None
        if skill is not None:
            saved.append((skill.mu, skill.sigma, counts[pk], pk))
        else:
            saved.append((base_mu, base_sigma, 0, pk))
    _ratings_save(saved)
    return len(rows)


def ratings_recompute(*, roster: Roster, from_games: bool = True) -> int:
    """Rebuild the roster's ratings from nothing; returns the number of games rated.

    ``from_games``: read each rated game again from its table game first (else replay
    the rated games as stored)."""
    with transaction.atomic():
        Roster.objects.select_for_update().filter(pk=roster.pk).first()
        if from_games:
            return _ratings_rebuild(roster)
        return _ratings_replay(roster)


# --------------------------------------------------------------------------- export, import

ROSTER_FORMAT = "tablescore-roster/1"
SEASON_KEYS = ("counting", "best", "drop", "min_nights", "place_points", "attendance", "tiebreaks")


def _season_data(season: Season) -> dict[str, Any]:
    return {"name": season.name, **{key: getattr(season, key) for key in SEASON_KEYS}}


def roster_export(*, roster: Roster) -> dict[str, Any]:
    """The roster as one JSON document: players (contacts, merges, ratings) and seasons."""
    players = list(Player.objects.filter(roster=roster).order_by("pk"))
    index = {p.pk: i for i, p in enumerate(players)}
    return {
        "format": ROSTER_FORMAT,
        "name": roster.name,
        "players": [
            {
                "name": p.name,
                "contact": p.contact,
                "merged_into": index.get(p.merged_into_id) if p.merged_into_id else None,
                "rating": None if p.mu is None else {"mu": p.mu, "sigma": p.sigma},
                "rated_games": p.rated_games,
            }
            for p in players
        ],
        "seasons": [_season_data(s) for s in Season.objects.filter(roster=roster).order_by("pk")],
    }


def _roster_problems(data: Any) -> list[Problem]:
    if not isinstance(data, Mapping) or data.get("format") != ROSTER_FORMAT:
        return [Problem(f"this is not a {ROSTER_FORMAT} document", field="format")]
    problems: list[Problem] = []
    players = data.get("players")
    if not isinstance(players, list):
        return [Problem("players is missing or malformed", field="players")]
    for number, player in enumerate(players, start=1):
        field = f"player {number}"
        if not isinstance(player, Mapping) or not isinstance(player.get("name"), str):
            problems.append(Problem(f"{field}: a name is needed", field=field))
            continue
        problems.extend(
            Problem(f"{field}: {p.message}", field=field)
            for p in _name_problems(player["name"], field)
        )
        rating = player.get("rating")
        if rating is not None and not (
            isinstance(rating, Mapping)
            and all(isinstance(rating.get(k), int | float) for k in ("mu", "sigma"))
            and 0 < float(rating["sigma"]) < 100
            and -1000 < float(rating["mu"]) < 1000
        ):
            problems.append(Problem(f"{field}: the rating needs mu and sigma", field=field))
        merged = player.get("merged_into")
        if merged is not None and not (isinstance(merged, int) and 0 <= merged < len(players)):
            problems.append(Problem(f"{field}: merged into no such player", field=field))
    seasons = data.get("seasons", [])
    if not isinstance(seasons, list):
        return [*problems, Problem("seasons is malformed", field="seasons")]
    for number, season in enumerate(seasons, start=1):
        field = f"season {number}"
        if not isinstance(season, Mapping) or not isinstance(season.get("name"), str):
            problems.append(Problem(f"{field}: a name is needed", field=field))
            continue
        if problem := text_problem(season["name"].strip(), SEASON_NAME_LONGEST):
            problems.append(Problem(f"{field}: the name {problem}", field=field))
        try:
            _rule_from(season)
        except SeasonError as error:
            problems.extend(Problem(f"{field}: {p.message}", field=field) for p in error.problems)
    return problems


def roster_import_json(*, roster: Roster, data: Any, user: Any = None) -> ImportResult:
    """Bring a roster document in, all or nothing, checked whole first. A player whose
    name (folded) is on the roster once is that player; a new name is a new player; a name
    several players share is a new player too (the director can merge). A rating brought
    in is where the player's ratings start; seasons are added unless one has the name."""
    problems = _roster_problems(data)
    if problems:
        raise SeasonError(problems)
    with transaction.atomic():
        Roster.objects.select_for_update().filter(pk=roster.pk).first()
        by_fold: dict[str, list[Player]] = {}
        for player in _live(roster):
            by_fold.setdefault(player.folded, []).append(player)
        created: list[Player] = []
        found: list[Player] = []
        made: list[Player] = []
        for item in data["players"]:
            same = by_fold.get(folded(item["name"]), [])
            if len(same) == 1 and item.get("merged_into") is None:
                player = same[0]
                found.append(player)
            else:
                player = Player.objects.create(
                    roster=roster,
                    name=item["name"].strip(),
                    folded=folded(item["name"]),
                    contact=str(item.get("contact") or "")[:CONTACT_LONGEST],
                )
                created.append(player)
            rating = item.get("rating")
            if rating is not None and player.rated_games == 0:
                player.base_mu, player.base_sigma = float(rating["mu"]), float(rating["sigma"])
                player.mu, player.sigma = player.base_mu, player.base_sigma
                player.save(update_fields=["base_mu", "base_sigma", "mu", "sigma"])
            made.append(player)
        for item, player in zip(data["players"], made, strict=True):
            if item.get("merged_into") is not None and player in created:
                player.merged_into = made[item["merged_into"]]
                player.save(update_fields=["merged_into"])
        names = {s.name for s in Season.objects.filter(roster=roster)}
        for item in data.get("seasons", []):
            if item["name"].strip() not in names:
                rule = _rule_from(item)
                Season.objects.create(
                    roster=roster,
                    name=item["name"].strip()[:SEASON_NAME_LONGEST],
                    counting=rule.counting.value,
                    best=rule.best,
                    drop=rule.drop,
                    min_nights=rule.min_nights,
                    place_points=list(rule.place_points),
                    attendance=rule.attendance,
                    tiebreaks=[t.value for t in rule.tiebreaks],
                )
        _log(
            roster,
            "roster_import_json",
            user,
            after={"created": len(created), "found": len(found)},
        )
    return ImportResult(created, found, [])


def club_export(*, event: Event) -> dict[str, Any] | None:
    """The event's club night for the event's export: its season, and who is who."""
    night = ClubNight.objects.filter(event=event).select_related("season").first()
    if night is None:
        return None
    index = {
        pk: i for i, pk in enumerate(event.entrants.order_by("pk").values_list("pk", flat=True))
    }
    links = EntrantPlayer.objects.filter(entrant__event=event).select_related("player")
    return {
        "season": _season_data(night.season) if night.season else None,
        "rated": night.rated,
        "balanced": night.balanced,
        "links": [
            {"entrant": index[link.entrant_id], "member": link.member, "player": link.player.name}
            for link in sorted(links, key=lambda k: (index[k.entrant_id], k.member))
        ],
    }


def club_import(*, event: Event, data: Any, user: Any = None) -> NightLinks:
    """Make an imported event a club night of its new owner's roster, as exported: the
    season found by name (made with its rule when missing), each link to the player of
    that name (a new player when nobody has it)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("links", []), list):
        raise SeasonError.single("the club night is malformed", field="club")
    roster = roster_for(owner=event.owner)
    season = None
    if data.get("season"):
        wanted = data["season"]
        if not isinstance(wanted, Mapping) or not isinstance(wanted.get("name"), str):
            raise SeasonError.single("the club night's season is malformed", field="club")
        season = Season.objects.filter(roster=roster, name=wanted["name"].strip()).first()
        if season is None:
            season = season_create(roster=roster, name=wanted["name"], rule=wanted, user=user)
    entrants = list(event.entrants.order_by("pk"))
    with transaction.atomic():
        for item in data.get("links", []):
            if not (
                isinstance(item, Mapping)
                and isinstance(item.get("entrant"), int)
                and 0 <= item["entrant"] < len(entrants)
                and isinstance(item.get("member", 0), int)
                and isinstance(item.get("player"), str)
            ):
                raise SeasonError.single("a link of the club night is malformed", field="club")
            entrant_index, member, name = item["entrant"], item.get("member", 0), item["player"]
            same = list(_live(roster).filter(folded=folded(name)))
            if len(same) > 1:
                continue  # asked about on the club night page
            player = same[0] if same else None
            if player is None:
                if problems := _name_problems(name, "club"):
                    raise SeasonError(problems)
                player = Player.objects.create(
                    roster=roster, name=name.strip(), folded=folded(name)
                )
            EntrantPlayer.objects.get_or_create(
                entrant=entrants[entrant_index], member=member, defaults={"player": player}
            )
        return club_night_set(
            event=event,
            season=season,
            rated=bool(data.get("rated", True)),
            balanced=bool(data.get("balanced", False)),
            user=user,
        )
