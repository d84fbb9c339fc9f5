"""The director's pages, all under /desk/ (``tournaments.web.urls`` names them)."""

from django.urls import path

from tournaments.web.desk import (
    bracket_pages,
    clock,
    directors,
    event_import,
    eventlog,
    links,
    print_pages,
    signup,
    views,
)

urlpatterns = [
    path("desk/", views.desk, name="desk"),
    path("desk/new/", views.event_new, name="event_new"),
    path("desk/import/", event_import.event_import_page, name="event_import"),
    path("desk/<int:pk>/", views.desk_event, name="desk_event"),
    path("desk/<int:pk>/live/", views.desk_live, name="desk_live"),
    path("desk/<int:pk>/entrants/add/", views.entrant_add, name="entrant_add"),
    path("desk/<int:pk>/entrants/csv/", views.entrants_csv, name="entrants_csv"),
    path(
        "desk/<int:pk>/entrants/check-in/",
        views.entrants_check_in_all,
        name="entrants_check_in_all",
    ),
    path(
        "desk/<int:pk>/entrants/<int:entrant_id>/check-in/",
        views.entrant_check_in,
        name="entrant_check_in",
    ),
    path("desk/<int:pk>/entrants/<int:entrant_id>/drop/", views.entrant_drop, name="entrant_drop"),
    path(
        "desk/<int:pk>/entrants/<int:entrant_id>/return/",
        views.entrant_return,
        name="entrant_return",
    ),
    path("desk/<int:pk>/away-scoring/", views.away_scoring, name="away_scoring"),
    path("desk/<int:pk>/table-sizes/", views.table_sizes, name="table_sizes"),
    path("desk/<int:pk>/keep-apart/", views.keep_apart_add, name="keep_apart_add"),
    path("desk/<int:pk>/rounds/generate/", views.tournament_round_generate, name="round_generate"),
    path("desk/<int:pk>/rounds/generation/", views.generation, name="generation"),
    path(
        "desk/<int:pk>/rounds/generation/restart/",
        views.generation_restart,
        name="generation_restart",
    ),
    path("desk/<int:pk>/rounds/<int:number>/", views.desk_round, name="desk_round"),
    path("desk/<int:pk>/rounds/<int:number>/swap/", views.tournament_round_swap, name="round_swap"),
    path(
        "desk/<int:pk>/rounds/<int:number>/publish/",
        views.tournament_round_publish,
        name="round_publish",
    ),
    path("desk/<int:pk>/rounds/<int:number>/undo/", views.tournament_round_undo, name="round_undo"),
    path(
        "desk/<int:pk>/rounds/<int:number>/clock/", clock.tournament_round_clock, name="round_clock"
    ),
    path("desk/<int:pk>/tables/<int:table_id>/", views.desk_table, name="desk_table"),
    path(
        "desk/<int:pk>/tables/<int:table_id>/change/",
        views.table_change,
        name="table_change",
    ),
    path(
        "desk/<int:pk>/tables/<int:table_id>/deals/<int:number>/correct/",
        views.result_correct,
        name="result_correct",
    ),
    path(
        "desk/<int:pk>/requests/<int:request_id>/",
        views.table_request_answer,
        name="table_request_answer",
    ),
    path("desk/<int:pk>/staff/", directors.staff_add, name="staff_add"),
    path(
        "desk/<int:pk>/staff/<int:staff_id>/remove/",
        directors.staff_remove,
        name="staff_remove",
    ),
    path("desk/<int:pk>/log/", eventlog.desk_log, name="desk_log"),
    path("desk/<int:pk>/close/", views.event_close, name="event_close"),
    path("desk/<int:pk>/standings.csv", views.standings_csv, name="standings_csv"),
    path("desk/<int:pk>/event.json", views.event_json, name="event_json"),
    path("desk/<int:pk>/bracket/", bracket_pages.bracket_desk, name="bracket_desk"),
    path("desk/<int:pk>/bracket/print/", bracket_pages.bracket_print, name="bracket_print"),
    path("desk/<int:pk>/print/<slug:kind>/", print_pages.printout, name="printout"),
    path("desk/<int:pk>/links/", links.desk_links, name="desk_links"),
    path("desk/<int:pk>/links/check-in/", links.check_in_by_pass, name="check_in_by_pass"),
    path("desk/<int:pk>/links/check-in-these/", links.check_in_these, name="check_in_these"),
    path("desk/<int:pk>/links/passes/", links.passes_print, name="passes_print"),
    path(
        "desk/<int:pk>/links/<int:entrant_id>/reissue/",
        links.entrant_link_reissue,
        name="entrant_link_reissue",
    ),
    # When and where, the sign-up page and its registrations, the announcements.
    path("desk/<int:pk>/signup/", signup.desk_signup, name="desk_signup"),
    path("desk/<int:pk>/signup/schedule/", signup.schedule_set, name="schedule_set"),
    path("desk/<int:pk>/signup/settings/", signup.signup_settings_set, name="signup_settings"),
    path(
        "desk/<int:pk>/registrations/<int:registration_id>/",
        signup.registration_change,
        name="registration_change",
    ),
    path(
        "desk/<int:pk>/registrations/<int:registration_id>/edit/",
        signup.registration_edit,
        name="registration_edit",
    ),
    path("desk/<int:pk>/announcements/", signup.desk_announcements, name="desk_announcements"),
    path(
        "desk/<int:pk>/announcements/<int:announcement_id>/remove/",
        signup.announcement_remove,
        name="announcement_remove",
    ),
]
