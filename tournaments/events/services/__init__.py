"""Every change to an event, one service each: keyword-only, typed, atomic, audited.

Each service checks first (raising ``TournamentError`` with problems that name the
field, for the director to read), then changes the rows and writes one ``EventLog``
row, in one transaction. Anything else raised is a bug. Seating and standings are
computed by the pure cores through ``tournaments.seating.adapter`` and
``tournaments.standings.adapter``.

One module per entity: ``event`` (create, check, close), ``entrants`` (registration,
check-in, drops and returns, how the away score, keep-apart pairs), ``self_service``
(what a player does from their own link, and the desk's side of it),
``tournament_rounds`` (seating, swaps, tables still playing, the absent recorded, the
background jobs), ``publishing`` (a draft's tables given their games, published, the
last round taken back), ``clock`` (a tournament round's clock started,
paused, resumed, extended), ``signup`` (the event's own sign-up page and its
registrations), ``announcements`` (the desk's lines on the players' pages), ``staff``
(co-directors and scorers added and removed),
``table_results`` (a table's result corrected, a table's request answered) and
``transfer`` (the event document exported and imported). This package is the one place
callers import them from.
"""

from tournaments.errors import TournamentError, stored_problems
from tournaments.events.services.announcements import announcement_add, announcement_remove
from tournaments.events.services.clock import (
    tournament_round_clock_change,
    tournament_round_clock_extend,
    tournament_round_clock_pause,
    tournament_round_clock_resume,
    tournament_round_clock_start,
)
from tournaments.events.services.entrants import (
    entrant_add,
    entrant_add_late,
    entrant_check_in,
    entrant_check_in_by_pass,
    entrant_drop,
    entrant_link_reissue,
    entrant_return,
    entrants_check_in_all,
    entrants_check_in_these,
    entrants_csv_preview,
    entrants_import_csv,
    event_away_scoring_set,
    keep_apart_add,
)
from tournaments.events.services.event import (
    event_check,
    event_close,
    event_create,
    event_schedule_set,
    event_table_sizes_set,
)
from tournaments.events.services.publishing import (
    tournament_round_publish,
    tournament_round_publish_part,
    tournament_round_undo,
)
from tournaments.events.services.self_service import (
    entrant_drop_answer,
    entrant_self_check_in,
    entrant_self_drop,
    entrant_self_drop_withdraw,
    event_self_service_set,
)
from tournaments.events.services.signup import (
    registration_approve,
    registration_create,
    registration_edit,
    registration_move,
    registration_refuse,
    registration_remove,
    registration_withdraw,
    signup_settings_set,
    waiting_list_advance,
)
from tournaments.events.services.staff import StaffError, event_staff_add, event_staff_remove
from tournaments.events.services.table_results import (
    result_correct,
    result_end_at_totals,
    result_remove,
    table_request_answer,
)
from tournaments.events.services.tournament_rounds import (
    Progress,
    StillPlayingError,
    SwapResult,
    background_job_restart,
    background_jobs_stalled,
    tournament_round_generate,
    tournament_round_generation_mark,
    tournament_round_opened_check,
    tournament_round_still_playing_check,
    tournament_round_swap,
)
from tournaments.events.services.transfer import event_export, event_import, event_import_check

__all__ = [
    "Progress",
    "StaffError",
    "StillPlayingError",
    "SwapResult",
    "TournamentError",
    "announcement_add",
    "announcement_remove",
    "background_job_restart",
    "background_jobs_stalled",
    "entrant_add",
    "entrant_add_late",
    "entrant_check_in",
    "entrant_check_in_by_pass",
    "entrant_drop",
    "entrant_drop_answer",
    "entrant_link_reissue",
    "entrant_return",
    "entrant_self_check_in",
    "entrant_self_drop",
    "entrant_self_drop_withdraw",
    "entrants_check_in_all",
    "entrants_check_in_these",
    "entrants_csv_preview",
    "entrants_import_csv",
    "event_away_scoring_set",
    "event_check",
    "event_close",
    "event_create",
    "event_export",
    "event_import",
    "event_import_check",
    "event_schedule_set",
    "event_self_service_set",
    "event_staff_add",
    "event_staff_remove",
    "event_table_sizes_set",
    "keep_apart_add",
    "registration_approve",
    "registration_create",
    "registration_edit",
    "registration_move",
    "registration_refuse",
    "registration_remove",
    "registration_withdraw",
    "result_correct",
    "result_end_at_totals",
    "result_remove",
    "signup_settings_set",
    "stored_problems",
    "table_request_answer",
    "tournament_round_clock_change",
    "tournament_round_clock_extend",
    "tournament_round_clock_pause",
    "tournament_round_clock_resume",
    "tournament_round_clock_start",
    "tournament_round_generate",
    "tournament_round_generation_mark",
    "tournament_round_opened_check",
    "tournament_round_publish",
    "tournament_round_publish_part",
    "tournament_round_still_playing_check",
    "tournament_round_swap",
    "tournament_round_undo",
    "waiting_list_advance",
]
