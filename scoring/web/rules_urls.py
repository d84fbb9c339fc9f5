"""The rules card of a table's game (in the scoring app's namespace)."""

from django.urls import path

from scoring.web import rules
from scoring.web import urls as table_urls  # registers the table_token converter

assert table_urls.urlpatterns

urlpatterns = [
    path("t/<table_token:token>/rules/", rules.table_rules, name="table_rules"),
]
