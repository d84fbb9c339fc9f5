from django.urls import path

from scoring import api, print_views
from scoring.web import urls as web_urls  # registers the table_token converter

app_name = "scoring"
urlpatterns = [
    *web_urls.urlpatterns,
    path("api/openapi.json", api.openapi, name="api_openapi"),
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
