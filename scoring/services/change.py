"""Who makes a change to a game, what a change answers, and the errors a change raises.

The frame every change runs in (the lock, the audit, the projection) is ``frame``; the
refusals any change may make, ``checks``; the answers kept for keyed requests,
``idempotency``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from django.contrib.auth.models import AnonymousUser, User

from scoring.engines.base import N_, Phrase, Problem
from scoring.models import Confirmation, Game, Round


@dataclass(frozen=True)
class Actor:
    """Who makes a change: the seat a phone says it is, the device, the signed-in user."""

    seat: int | None = None
    device: str = ""
    # The request's user (anonymous at most tables), or None where no request is.
    user: User | AnonymousUser | None = None
    # A director of the game's event, at the event's desk: the caller checked who may
    # direct the event. Only the desk changes a closed event table.
    desk: bool = False
    # The player proven to hold ``seat`` by their own link (their name), not a seat only
    # said on the phone: the caller checked the proof (``scoring.selectors.seat_person``).
    person: str = ""

    @property
    def user_or_none(self) -> User | None:
        """The signed-in user, kept on the rows the change writes; None for anyone else."""
        user = self.user
        if user is None or isinstance(user, AnonymousUser) or not user.is_authenticated:
            return None
        return user


# Words a message names a request or a withdrawn round by (as the model's values say them).
ASKED_KINDS = {
    "undo": N_("undo the last round"),
    "end": N_("end the game"),
    "reopen": N_("reopen the game"),
    "correct": N_("correct a round"),
}
ANSWERED_STATUSES = {
    "open": N_("waiting for the other side"),
    "accepted": N_("accepted"),
    "declined": N_("declined"),
    "withdrawn": N_("withdrawn"),
    "lapsed": N_("no longer possible"),
}
WITHDRAWN_HOW = {"undone": N_("undone"), "corrected": N_("corrected")}


def asked_kind(kind: str) -> Phrase:
    return Phrase(ASKED_KINDS.get(kind, kind))


def answered_status(status: str) -> Phrase:
    return Phrase(ANSWERED_STATUSES.get(status, status))


class GameChangeError(Exception):
    """A change the rules or the state of the game refuse; carries user-facing problems."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))

    @classmethod
    def single(
        cls,
        template: str,
        *,
        round_number: int | None = None,
        field: str | None = None,
        **values: Any,
    ) -> Self:
        """One problem: ``template`` marked with ``N_``, filled with ``values`` for each
        reader (see scoring.engines.base)."""
        return cls([Problem(template, round_number, field, values)])


class RoundConflict(GameChangeError):
    """Another phone recorded this round number first."""

    def __init__(self, recorded: Round):
        self.recorded = recorded
        super().__init__(
            [
                Problem(
                    N_("round {number} was already recorded"),
                    recorded.number,
                    "number",
                    {"number": recorded.number},
                )
            ]
        )


class IdempotencyKeyReused(GameChangeError):
    pass


class SeatNotSaid(GameChangeError):
    """A change that needs to know which seat makes it (who enters a round decides who
    confirms it; a confirmation or an agreement is a seat's), made by no seat in
    particular: nothing was done. A phone's page asks who holds it."""


# What the next round's number is, in the game's own word for a round (its engine's
# ``round_word``): one template each, so that each language says it its own way.
NEXT_ROUND = {
    "Deal": N_("the next deal is deal {expected}"),
    "Hand": N_("the next hand is hand {expected}"),
    "Round": N_("the next round is round {expected}"),
}


class NotTheNextRound(GameChangeError):
    """A round numbered neither the next one nor one recorded (0, past the next):
    ``expected`` is the next one's number, said in the game's ``word`` for a round
    ("Deal", "Hand", "Round"). Nothing was done."""

    def __init__(self, number: int, expected: int, word: str = "Round"):
        self.expected = expected
        super().__init__(
            [
                Problem(
                    NEXT_ROUND.get(word, NEXT_ROUND["Round"]),
                    number,
                    "number",
                    {"expected": expected},
                )
            ],
        )


class NoSuchGame(GameChangeError):
    """The game to change is not there (deleted since the caller found it)."""


STALE_MESSAGE = N_(
    "the game changed since you opened it: here is what is there now; make your change again"
)


class StaleRevision(GameChangeError):
    """A change made against a revision the game has moved past: nothing was done.

    ``current`` is the revision there now, ``now`` the round the change was about as it
    stands (None: none there, or no round named); the page (or the API's 409) shows the
    game as it stands, and the change can be made again from there.
    """

    def __init__(
        self,
        game: Game,
        *,
        made_against: int | None,
        round_number: int | None = None,
        now: Round | None = None,
    ):
        self.current = game.revision
        self.now = now
        self.made_against = made_against
        super().__init__([Problem(STALE_MESSAGE, round_number, "revision")])


class RoundWithdrawn(StaleRevision):
    """A retry of a keyed request whose round was undone (or corrected) since its first
    answer: nothing is stored again, so that a late retry never reverses another phone's
    undo. ``how`` is "undone" or "corrected"; ``current`` the game's revision now;
    ``now`` the round of that number as it stands (None: none there), and
    ``enter_again`` whether that round is the next one to enter again (undone, and nothing
    recorded after)."""

    def __init__(self, game: Game, *, number: int, how: str, now: Round | None = None):
        super().__init__(game, made_against=None, round_number=number, now=now)
        self.how = how
        self.number = number
        self.enter_again = how == "undone" and now is None and number == game.last_round_number + 1
        self.problems = [
            Problem(
                N_(
                    "round {number} was {how} since this request was first answered: it was "
                    "not stored again; here is what is there now; enter it again if it still "
                    "stands"
                ),
                number,
                "number",
                {"number": number, "how": Phrase(WITHDRAWN_HOW.get(how, how))},
            )
        ]
        self.args = ("; ".join(str(p) for p in self.problems),)


class LaterDealsBreak(GameChangeError):
    """A change of deal ``number`` (a correction; or, with ``removing``, its removal) that
    would change how the game ended: deal ``later`` no longer stands (None: the ending no
    longer fits). Nothing was done. The desk may make it with the deals after ``kept`` (the
    last one that stands) removed: the game ended there, or going on from there; ``ends``
    says whether the game ends there by itself (both then come to the same)."""

    def __init__(
        self,
        problems: list[Problem],
        *,
        number: int,
        kept: int,
        later: int | None,
        ends: bool,
        removing: bool = False,
    ):
        self.number = number
        self.kept = kept
        self.later = later
        self.ends = ends
        self.removing = removing
        super().__init__(problems)


class TableClosed(GameChangeError):
    """An event table whose game is over: only the event's desk changes it now.

    The table asks the desk instead (``desk_request_open``).
    """

    def __init__(self, round_number: int | None = None, *, by_desk: bool = False):
        why = (
            N_("the event's desk decided this table's match")
            if by_desk
            else N_("this event table's game is over")
        )
        super().__init__(
            [
                Problem(
                    N_("{why}: a change now goes to the event's desk"),
                    round_number,
                    "table",
                    {"why": Phrase(why)},
                )
            ]
        )


@dataclass(frozen=True)
class ChangeResult:
    game: Game
    score: dict[str, Any]
    round_number: int | None = None
    replayed: bool = False
    # A recorded round: that round as scored; ``score`` is then the standing (the score
    # without its rounds), so that the answer stays the same size however long the game.
    round: dict[str, Any] | None = None
    # That round's row as stored.
    row: Round | None = None

    def payload(self) -> dict[str, Any]:
        return {"number": self.round_number, "score": self.score}


def default_confirmation(*, is_tournament_game: bool) -> str:
    return Confirmation.OTHER_SIDE if is_tournament_game else Confirmation.OFF
