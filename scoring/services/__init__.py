"""Every change to a game, one service each, atomic, with an audit event.

The pattern: lock the game, load its rounds, ask the engine about the new
state of the whole game, save the input and the audit event, rebuild the score
projection, all in one transaction.

One module per entity: ``change`` (who changes, the errors a change raises, and the
frame every change runs in: the lock, the audit, the projection, idempotency),
``game`` (a game started, imported, ended, reopened, started again), ``rounds`` (a
round recorded, confirmed, corrected, undone, a misdeal), ``change_requests`` (a
change asked of the other side) and ``desk_requests`` (a change asked of an event's
desk). This package is the one place callers import them from.
"""

from scoring.engines.base import deal_words
from scoring.services.bulk import PreparedGame, game_prepare, games_create_prepared
from scoring.services.change import (
    IDEMPOTENCY_KEPT,
    PROJECTION_FIELDS,
    PRUNE_EVERY_SECONDS,
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
    prune_idempotent_requests,
)
from scoring.services.change_requests import (
    RequestResult,
    change_request_accept,
    change_request_decline,
    change_request_open,
)
from scoring.services.desk_requests import REASON_LONGEST, desk_request_answer, desk_request_open
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
from scoring.services.rounds import (
    Later,
    RoundSaved,
    misdeal_record,
    round_confirm,
    round_correct,
    round_record,
    round_remove,
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
