"""The phone pages of a game at one table (the namespace is the scoring app's)."""

from django.urls import path, register_converter

from scoring.converters import TableTokenConverter
from scoring.web import history, new_game, table_actions, view_link

register_converter(TableTokenConverter, "table_token")

urlpatterns = [
    path("t/<table_token:token>/", table_actions.table, name="table"),
    path("t/<table_token:token>/live/", table_actions.table_live, name="table_live"),
    path("t/<table_token:token>/entry/", table_actions.table_entry, name="table_entry"),
    path("t/<table_token:token>/seat/", table_actions.table_seat, name="table_seat"),
    path("t/<table_token:token>/end/", table_actions.table_end, name="table_end"),
    path("t/<table_token:token>/undo/", table_actions.round_undo_view, name="round_undo"),
    path("t/<table_token:token>/history/", history.history, name="history"),
    path("t/<table_token:token>/rematch/", table_actions.game_rematch_view, name="rematch"),
    path(
        "t/<table_token:token>/requests/<int:request_id>/",
        table_actions.change_request_answer,
        name="change_request_answer",
    ),
    path(
        "t/<table_token:token>/rounds/<int:number>/confirm/",
        table_actions.round_confirm_view,
        name="round_confirm",
    ),
    path(
        "t/<table_token:token>/rounds/<int:number>/correct/",
        history.round_correct_view,
        name="round_correct",
    ),
    path("v/<table_token:token>/", view_link.table_view, name="table_view"),
    path("v/<table_token:token>/live/", view_link.table_view_live, name="table_view_live"),
    path("games/new/", new_game.game_new, name="game_new"),
    path("games/", new_game.my_games, name="my_games"),
]
