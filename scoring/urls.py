from django.urls import path, register_converter

from scoring import print_views, views
from scoring.converters import TableTokenConverter

register_converter(TableTokenConverter, "table_token")

app_name = "scoring"
urlpatterns = [
    path("t/<table_token:token>/", views.table, name="table"),
    path("t/<table_token:token>/live/", views.table_live, name="table_live"),
    path("t/<table_token:token>/entry/", views.table_entry, name="table_entry"),
    path("t/<table_token:token>/seat/", views.table_seat, name="table_seat"),
    path("t/<table_token:token>/end/", views.table_end, name="table_end"),
    path("t/<table_token:token>/undo/", views.round_undo_view, name="round_undo"),
    path("t/<table_token:token>/history/", views.history, name="history"),
    path(
        "t/<table_token:token>/rounds/<int:number>/confirm/",
        views.round_confirm_view,
        name="round_confirm",
    ),
    path(
        "t/<table_token:token>/rounds/<int:number>/correct/",
        views.round_correct_view,
        name="round_correct",
    ),
    path("games/new/", views.game_new, name="game_new"),
    path("games/", views.my_games, name="my_games"),
    path("t/<table_token:token>/scoresheet.pdf", print_views.scoresheet_pdf, name="scoresheet_pdf"),
    path("print/", print_views.blank_sheets, name="blank_sheets"),
    path("print/games/", print_views.print_games, name="print_games"),
    path("print/jobs/<table_token:token>/", print_views.print_job, name="print_job"),
    path(
        "print/jobs/<table_token:token>/status/",
        print_views.print_job_status,
        name="print_job_status",
    ),
    path(
        "print/jobs/<table_token:token>/retry/", print_views.print_job_retry, name="print_job_retry"
    ),
    path(
        "print/jobs/<table_token:token>/file.pdf", print_views.print_job_file, name="print_job_file"
    ),
]
