from django.urls import path

from scoring import api, views

app_name = "scoring"
urlpatterns = [
    path("t/<str:token>/", views.table, name="table"),
    path("api/games/", api.games, name="api_games"),
    path("api/games/<int:game_id>/", api.game_detail, name="api_game"),
    path("api/games/<int:game_id>/rounds/", api.game_rounds, name="api_rounds"),
    path("api/games/<int:game_id>/rounds/<int:number>/", api.game_round, name="api_round"),
    path(
        "api/games/<int:game_id>/rounds/<int:number>/confirm/",
        api.game_round_confirm,
        name="api_round_confirm",
    ),
    path("api/games/<int:game_id>/end/", api.game_ending, name="api_end"),
]
