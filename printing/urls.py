from django.urls import path, register_converter

from printing import views
from scoring.converters import TableTokenConverter

# Table tokens (a game's sheet) and print job tokens are both url-safe base64.
register_converter(TableTokenConverter, "sheet_token")

app_name = "printing"
urlpatterns = [
    path("t/<sheet_token:token>/scoresheet.pdf", views.scoresheet_pdf, name="scoresheet_pdf"),
    path("print/", views.blank_sheets, name="blank_sheets"),
    path("print/games/", views.print_games, name="print_games"),
    path("print/jobs/<sheet_token:token>/", views.print_job, name="print_job"),
    path("print/jobs/<sheet_token:token>/status/", views.print_job_status, name="print_job_status"),
    path("print/jobs/<sheet_token:token>/retry/", views.print_job_retry, name="print_job_retry"),
    path("print/jobs/<sheet_token:token>/file.pdf", views.print_job_file, name="print_job_file"),
]
