"""The URLs of an event's printouts; config/urls.py includes them at the site's root."""

from django.urls import path

from tournaments.web.desk import printouts as print_views

app_name = "tournament_print"
urlpatterns = [
    path("print/events/<int:event_id>/<slug:kind>/", print_views.printout, name="printout"),
]
