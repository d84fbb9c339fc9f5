"""The bracket's pages: public by the event's public token, the director's behind login."""

from django.urls import path

from tournaments.web.public import brackets as views

app_name = "brackets"
urlpatterns = [
    path("bracket/<str:token>/", views.bracket_page, name="page"),
    path("bracket/<str:token>/live/", views.bracket_live, name="live"),
    path("bracket/<str:token>/bracket.pdf", views.bracket_pdf, name="pdf"),
    path("events/<int:event_id>/bracket/", views.bracket_desk, name="desk"),
    path("events/<int:event_id>/bracket/print/", views.bracket_print, name="print"),
]
