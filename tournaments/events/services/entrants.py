"""An event's entrants: registered by name or from a list, late, checked in, dropped, kept apart."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from common.phrases import N_, Phrase
from scoring.engines.base import Problem, text_problem
from tournaments.errors import TournamentError, refuse, stored_value
from tournaments.events import availability, passes, player_list
from tournaments.events.document import (
    MOST_MEMBERS,
    NAME_LONGEST,
)
from tournaments.events.selectors import entrants_by_name, folded, published_rounds_count
from tournaments.events.services.signup import waiting_list_advance
from tournaments.models import (
    Entrant,
    Event,
    KeepApart,
)
from tournaments.models.tokens import new_private_token
from tournaments.services.change import (
    ActingUser,
    bump,
    event_locked,
    event_locked_open,
    event_log,
    refuse_closed,
)


def _name_problems(
    name: str, members: Sequence[str], taken: set[str], *, field: str = "name"
) -> list[Problem]:
    problems: list[Problem] = []
    if not name.strip():
        problems.append(Problem(N_("the name is empty"), field=field))
    elif len(name.strip()) > NAME_LONGEST:
        problems.append(
            Problem(
                N_("the name is at most {longest} characters"),
                field=field,
                values={"longest": NAME_LONGEST},
            )
        )
    elif problem := text_problem(name.strip(), NAME_LONGEST):
        problems.append(Problem(N_("the name {problem}"), field=field, values={"problem": problem}))
    elif folded(name) in taken:
        problems.append(
            Problem(N_("{name} is already registered"), field=field, values={"name": name.strip()})
        )
    if len(members) == 1:
        problems.append(Problem(N_("a team has at least two members"), field="members"))
    if len(members) > MOST_MEMBERS:
        problems.append(
            Problem(
                N_("a team has at most {most} members"),
                field="members",
                values={"most": MOST_MEMBERS},
            )
        )
    for member in members:
        if not member.strip() or len(member.strip()) > NAME_LONGEST:
            problems.append(
                Problem(
                    N_("each member's name is 1 to {longest} characters"),
                    field="members",
                    values={"longest": NAME_LONGEST},
                )
            )
            break
        if problem := text_problem(member.strip(), NAME_LONGEST):
            problems.append(
                Problem(
                    N_("“{member}”: the name {problem}"),
                    field="members",
                    values={"member": member.strip(), "problem": problem},
                )
            )
            break
    return problems


def _taken(event: Event) -> set[str]:
    return {folded(n) for n in event.entrants.values_list("name", flat=True)}


def _entrant_data(entrant: Entrant) -> dict[str, Any]:
    return {
        "id": entrant.pk,
        "name": entrant.name,
        "members": list(entrant.members),
        "checked_in": entrant.checked_in,
        "dropped": entrant.dropped,
        "joined_round": entrant.joined_round,
    }


def _add(
    event: Event, name: str, members: Sequence[str], user: ActingUser, *, late: bool, action: str
) -> Entrant:
    with transaction.atomic():
        event = event_locked_open(event)
        members = [m.strip() for m in members]
        refuse(_name_problems(name, members, _taken(event)))
        published = published_rounds_count(event=event)
        if not late and published:
            raise TournamentError.single(
                N_("the event has started: add a late entry instead"), field="name"
            )
        entrant = Entrant.objects.create(
            event=event,
            name=name.strip(),
            members=members,
            joined_round=published + 1,
            # Present: counted among those checked in while check-in is in use.
            checked_in=late and availability.is_checking(event.entrants.all()),
        )
        event_log(event, action, user, after=_entrant_data(entrant))
        bump(event)
    return entrant


def entrant_add(
    *, event: Event, name: str, members: Sequence[str] = (), user: ActingUser = None
) -> Entrant:
    """Register a player (or a fixed team with its members) before the first round."""
    return _add(event, name, members, user, late=False, action="entrant_add")


def entrant_add_late(
    *, event: Event, name: str, members: Sequence[str] = (), user: ActingUser = None
) -> Entrant:
    """A late entry, seated from the next round generated (checked in, while check-in
    is in use)."""
    return _add(event, name, members, user, late=True, action="entrant_add_late")


def _list_problems(event: Event, listed: player_list.PlayerList) -> list[Problem]:
    """Every mistake of a player list against the event, by line."""
    problems = [
        Problem(
            N_("line {line}: {problem}"),
            field=f"line {n}",
            values={"line": n, "problem": Phrase(m)},
        )
        for n, m in listed.mistakes
    ]
    if published_rounds_count(event=event):
        return [Problem(N_("the event has started: add late entries one by one"), field="file")]
    taken = _taken(event)
    # A name on more than one line of the file is a repeat in the file, with its lines,
    # not a player "already registered" (nobody is, until the whole list is).
    lines_of: dict[str, list[int]] = {}
    for player in listed.players:
        lines_of.setdefault(folded(player.name), []).append(player.line)
    for player in listed.players:
        line = f"line {player.line}"
        lines = lines_of[folded(player.name)]
        if len(lines) > 1 and player.line != lines[0]:
            problems.append(
                Problem(
                    N_("line {line}: {name} is repeated in the file (lines {lines} and {last})"),
                    field=line,
                    values={
                        "line": player.line,
                        "name": player.name,
                        "lines": ", ".join(str(n) for n in lines[:-1]),
                        "last": lines[-1],
                    },
                )
            )
            continue
        for problem in _name_problems(player.name, list(player.members), taken, field=line):
            problems.append(
                Problem(
                    N_("line {line}: {problem}"),
                    field=line,
                    values={"line": player.line, "problem": problem},
                )
            )
    problems.sort(key=lambda p: int((p.field or "line 0").split()[1]))
    if not listed.players and not problems:
        problems.append(Problem(N_("the file holds no names"), field="file"))
    return problems


def entrants_csv_preview(
    *, event: Event, text: str
) -> tuple[player_list.PlayerList, list[Problem]]:
    """What registering a player list would do, and what is wrong with it; writes nothing."""
    listed = player_list.read_player_list(text)
    return listed, _list_problems(event, listed)


def entrants_import_csv(*, event: Event, text: str, user: ActingUser = None) -> list[Entrant]:
    """Register every player of a list (``tournaments.events.player_list``), all or none.

    A header row, blank lines and comments register nobody; every mistake names its line.
    """
    listed = player_list.read_player_list(text)
    with transaction.atomic():
        event = event_locked(event)
        refuse_closed(event)
        refuse(_list_problems(event, listed))
        created = Entrant.objects.bulk_create(
            Entrant(event=event, name=p.name, members=list(p.members)) for p in listed.players
        )
        event_log(
            event,
            "entrants_import_csv",
            user,
            after={
                "names": [p.name for p in listed.players],
                # Each as its template and values, said in the log reader's language.
                "skipped": [stored_value(note) for note in listed.skipped],
            },
        )
        bump(event)
    names = [p.name for p in listed.players]
    return list(event.entrants.filter(name__in=names)) if created else []


def entrant_of(event: Event, entrant: Entrant) -> Entrant:
    found = Entrant.objects.select_for_update().filter(pk=entrant.pk, event=event).first()
    if found is None:
        raise TournamentError.single(N_("that player is not in this event"), field="entrant")
    return found


def entrant_check_in(
    *, event: Event, entrant: Entrant, checked_in: bool = True, user: ActingUser = None
) -> Entrant:
    """Mark a player present (or not). Once anyone is checked in, only those are seated."""
    with transaction.atomic():
        event = event_locked_open(event)
        entrant = entrant_of(event, entrant)
        before = entrant.checked_in
        entrant.checked_in = checked_in
        entrant.save(update_fields=["checked_in"])
        event_log(
            event,
            "entrant_check_in",
            user,
            before={"id": entrant.pk, "checked_in": before},
            after={"id": entrant.pk, "checked_in": checked_in},
        )
        bump(event)
    return entrant


def entrants_check_in_all(*, event: Event, query: str = "", user: ActingUser = None) -> int:
    """Check in at once every player not dropped (``query``: those whose name holds it,
    as the desk's search finds them); how many were not checked in before. One line in
    the log names them all."""
    with transaction.atomic():
        event = event_locked_open(event)
        found = entrants_by_name(event=event, query=query).filter(dropped=False)
        ids = list(found.filter(checked_in=False).values_list("pk", flat=True))
        Entrant.objects.filter(pk__in=ids).update(checked_in=True)
        event_log(
            event,
            "entrants_check_in_all",
            user,
            before={"ids": ids, "checked_in": False},
            after={"ids": ids, "checked_in": True, "query": query},
        )
        bump(event)
    return len(ids)


def entrants_check_in_these(
    *, event: Event, entrant_ids: Sequence[int], user: ActingUser = None
) -> int:
    """Check in the players the director ticked (those not dropped); how many were not
    checked in before. One line in the log names them all."""
    with transaction.atomic():
        event = event_locked_open(event)
        if not entrant_ids:
            raise TournamentError.single(N_("tick the players to check in"), field="entrant")
        found = event.entrants.filter(pk__in=list(entrant_ids), dropped=False)
        ids = list(found.filter(checked_in=False).values_list("pk", flat=True))
        Entrant.objects.filter(pk__in=ids).update(checked_in=True)
        event_log(
            event,
            "entrants_check_in_these",
            user,
            before={"ids": ids, "checked_in": False},
            after={"ids": ids, "checked_in": True},
        )
        bump(event)
    return len(ids)


def entrant_check_in_by_pass(
    *, event: Event, text: str, user: ActingUser = None
) -> tuple[Entrant, bool]:
    """Check in the player whose pass the desk scanned or typed (their own link, or its
    token): the entrant and whether they were checked in already (then nothing changes).

    A pass of another event, a revoked one, a dropped player's or anything that is not a
    pass is refused, by a message naming the ``pass`` field."""
    token = passes.token_from_pass(text)
    if token is None:
        raise TournamentError.single(
            N_(
                "that is not a player's link or pass code: scan the pass again, "
                "or type the link written under its code"
            ),
            field="pass",
        )
    holder = passes.pass_holder(event=event, token=token)
    if holder.revoked:
        raise TournamentError.single(
            N_("this pass was revoked: its player has a new link; print their new pass"),
            field="pass",
        )
    if holder.other_event:
        raise TournamentError.single(
            N_("this pass is for another event, not this one"), field="pass"
        )
    if holder.not_entered and holder.player is not None:
        raise TournamentError.single(
            N_("{name} is on the roster but not in this event: add them first"),
            field="pass",
            name=holder.player.name,
        )
    entrant = holder.entrant
    if entrant is None:
        raise TournamentError.single(
            N_("no player has this pass: check the link, or scan it again"), field="pass"
        )
    if entrant.dropped:
        raise TournamentError.single(
            N_("{name} has dropped: take the drop back first"), field="pass", name=entrant.name
        )
    if entrant.checked_in:
        return entrant, True
    return entrant_check_in(event=event, entrant=entrant, checked_in=True, user=user), False


def entrant_link_reissue(*, event: Event, entrant: Entrant, user: ActingUser = None) -> Entrant:
    """Revoke a player's own link and give them a new one (a new private token): the old
    link and its printed pass are refused from now on. The log keeps a fingerprint of the
    old token (never the token), so that a revoked pass is recognised at the desk."""
    with transaction.atomic():
        event = event_locked(event)
        entrant = entrant_of(event, entrant)
        old = entrant.private_token
        entrant.private_token = new_private_token()
        entrant.save(update_fields=["private_token"])
        event_log(
            event,
            passes.ENTRANT_REISSUE,
            user,
            before={
                "id": entrant.pk,
                "name": entrant.name,
                "fingerprint": passes.token_fingerprint(old),
            },
            after={"id": entrant.pk, "name": entrant.name},
        )
        bump(event)
    return entrant


def entrant_drop(*, event: Event, entrant: Entrant, user: ActingUser = None) -> Entrant:
    """Drop a player from the next round generated on; their results so far stand."""
    with transaction.atomic():
        event = event_locked_open(event)
        entrant = entrant_of(event, entrant)
        if entrant.dropped:
            raise TournamentError.single(
                N_("{name} has already dropped"), field="entrant", name=entrant.name
            )
        entrant.dropped = True
        entrant.save(update_fields=["dropped"])
        event_log(event, "entrant_drop", user, after={"id": entrant.pk, "name": entrant.name})
        bump(event)
        waiting_list_advance(event=event)  # a place freed under the sign-up's cap
    return entrant


def entrant_return(*, event: Event, entrant: Entrant, user: ActingUser = None) -> Entrant:
    """Take back a drop: the player is seated again from the next round generated."""
    with transaction.atomic():
        event = event_locked(event)
        refuse_closed(event)
        entrant = entrant_of(event, entrant)
        if not entrant.dropped:
            raise TournamentError.single(
                N_("{name} has not dropped"), field="entrant", name=entrant.name
            )
        entrant.dropped = False
        entrant.save(update_fields=["dropped"])
        event_log(event, "entrant_return", user, after={"id": entrant.pk, "name": entrant.name})
        bump(event)
    return entrant


def event_away_scoring_set(*, event: Event, away_scoring: str, user: ActingUser = None) -> Event:
    """How a player away for a round scores for it: nothing, or the event's bye score."""
    with transaction.atomic():
        event = event_locked(event)
        refuse_closed(event)
        if away_scoring not in Event.AwayScoring.values:
            raise TournamentError.single(
                N_("choose how an away player scores: nothing or the bye score"),
                field="away_scoring",
            )
        before = event.away_scoring
        event.away_scoring = away_scoring
        event.save(update_fields=["away_scoring", "updated_at"])
        event_log(
            event,
            "event_away_scoring",
            user,
            before={"away_scoring": before},
            after={"away_scoring": away_scoring},
        )
        bump(event)
    return event


def two_chosen(first: Entrant | None, second: Entrant | None) -> tuple[Entrant, Entrant]:
    """The two players a change names; refused, naming the field, when one is missing."""
    problems = []
    if first is None:
        problems.append(Problem(N_("choose the first player"), field="first"))
    if second is None:
        problems.append(Problem(N_("choose the second player"), field="second"))
    if first is None or second is None:
        raise TournamentError(problems)
    return first, second


def keep_apart_add(
    *, event: Event, first: Entrant | None, second: Entrant | None, user: ActingUser = None
) -> KeepApart:
    """Two players who should never share a table."""
    first, second = two_chosen(first, second)
    with transaction.atomic():
        event = event_locked_open(event)
        first, second = entrant_of(event, first), entrant_of(event, second)
        if first.pk == second.pk:
            raise TournamentError.single(N_("choose two different players"), field="second")
        pair = {first.pk, second.pk}
        if any(
            {a, b} == pair
            for a, b in KeepApart.objects.filter(event=event).values_list("first_id", "second_id")
        ):
            raise TournamentError.single(
                N_("{first} and {second} are already kept apart"),
                field="second",
                first=first.name,
                second=second.name,
            )
        kept = KeepApart.objects.create(event=event, first=first, second=second)
        event_log(event, "keep_apart_add", user, after={"first": first.pk, "second": second.pk})
    return kept
