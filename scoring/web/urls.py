"""The phone pages of a game at one table (the namespace is the scoring app's)."""

from django.urls import path, register_converter

from scoring.converters import TableTokenConverter
from scoring.web import view_link, views

register_converter(TableTokenConverter, "table_token")

urlpatterns = [
    path("t/<table_token:token>/", views.table, name="table"),
    path("t/<table_token:token>/live/", views.table_live, name="table_live"),
    path("t/<table_token:token>/entry/", views.table_entry, name="table_entry"),
    path("t/<table_token:token>/seat/", views.table_seat, name="table_seat"),
    path("t/<table_token:token>/end/", views.table_end, name="table_end"),
    path("t/<table_token:token>/undo/", views.round_undo_view, name="round_undo"),
    path("t/<table_token:token>/history/", views.history, name="history"),
    path("t/<table_token:token>/rematch/", views.game_rematch_view, name="rematch"),
    path(
        "t/<table_token:token>/requests/<int:request_id>/",
        views.change_request_answer,
        name="change_request_answer",
    ),
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
    path("v/<table_token:token>/", view_link.table_view, name="table_view"),
    path("v/<table_token:token>/live/", view_link.table_view_live, name="table_view_live"),
    path("games/new/", views.game_new, name="game_new"),
    path("games/", views.my_games, name="my_games"),
]
