"""Every change to a game, one service each, atomic, with an audit event.

The pattern: lock the game, load its rounds, ask the engine about the new
state of the whole game, save the input and the audit event, rebuild the score
projection, all in one transaction.

One module per concern: ``change`` (who changes, what a change answers, the errors it
raises), ``checks`` (the refusals any change may make), ``frame`` (the frame every change
runs in: the lock, the audit, the projection), ``idempotency`` (keyed requests' answers),
``game`` (a game started, imported, ended, reopened, started again), ``rounds`` (a round
recorded, saved from the table, confirmed, undone, a misdeal), ``corrections`` (a round
corrected, the desk's removals), ``change_requests`` (a change asked of the other side),
``desk_requests`` (a change asked of an event's desk) and ``bulk`` (games made many at a
time). This package is the one place callers outside it import them from.
"""

from scoring.engines.base import deal_words
from scoring.services.bulk import PreparedGame, game_prepare, games_create_prepared
from scoring.services.change import (
    STALE_MESSAGE,
    Actor,
    ChangeResult,
    GameChangeError,
    IdempotencyKeyReused,
    LaterDealsBreak,
    NoSuchGame,
    NotTheNextRound,
    RoundConflict,
    RoundWithdrawn,
    SeatNotSaid,
    StaleRevision,
    TableClosed,
    default_confirmation,
)
from scoring.services.change_requests import (
    RequestResult,
    change_request_accept,
    change_request_decline,
    change_request_open,
)
from scoring.services.checks import REASON_LONGEST
from scoring.services.corrections import Later, round_correct, round_remove
from scoring.services.desk_requests import desk_request_answer, desk_request_open
from scoring.services.frame import PROJECTION_FIELDS
from scoring.services.game import (
    game_create,
    game_end,
    game_end_at_totals,
    game_import,
    game_rematch,
    game_reopen,
    game_start_again,
    seat_hold,
)
from scoring.services.idempotency import (
    IDEMPOTENCY_KEPT,
    PRUNE_EVERY_SECONDS,
    prune_idempotent_requests,
)
from scoring.services.rounds import (
    RoundSaved,
    misdeal_record,
    round_confirm,
    round_record,
    round_save,
    round_undo,
)

__all__ = [
    "IDEMPOTENCY_KEPT",
    "PROJECTION_FIELDS",
    "PRUNE_EVERY_SECONDS",
    "REASON_LONGEST",
    "STALE_MESSAGE",
    "Actor",
    "ChangeResult",
    "GameChangeError",
    "IdempotencyKeyReused",
    "Later",
    "LaterDealsBreak",
    "NoSuchGame",
    "NotTheNextRound",
    "PreparedGame",
    "RequestResult",
    "RoundConflict",
    "RoundSaved",
    "RoundWithdrawn",
    "SeatNotSaid",
    "StaleRevision",
    "TableClosed",
    "change_request_accept",
    "change_request_decline",
    "change_request_open",
    "deal_words",
    "default_confirmation",
    "desk_request_answer",
    "desk_request_open",
    "game_create",
    "game_end",
    "game_end_at_totals",
    "game_import",
    "game_prepare",
    "game_rematch",
    "game_reopen",
    "game_start_again",
    "games_create_prepared",
    "misdeal_record",
    "prune_idempotent_requests",
    "round_confirm",
    "round_correct",
    "round_record",
    "round_remove",
    "round_save",
    "round_undo",
    "seat_hold",
]
