"""The players' pages of an event, all under /e/<public token>/ (the bracket too)."""

from django.urls import path

from tournaments.web.public import bracket_pages, signup, views

urlpatterns = [
    path("e/<str:token>/", views.draw, name="draw"),
    path("e/<str:token>/seat/", views.seat_search, name="seat_search"),
    path("e/<str:token>/standings/", views.standings, name="standings"),
    path("e/<str:token>/players/<int:entrant_id>/", views.entrant, name="entrant"),
    path("e/<str:token>/projector/", views.projector, name="projector"),
    path("e/<str:token>/signup/", signup.signup_page, name="signup"),
    path("e/<str:token>/signup/<str:reg>/", signup.signup_status, name="signup_status"),
    path("e/<str:token>/bracket/", bracket_pages.bracket_page, name="bracket"),
    path("e/<str:token>/bracket/live/", bracket_pages.bracket_live, name="bracket_live"),
    path("e/<str:token>/bracket/wall/", bracket_pages.bracket_wall, name="bracket_wall"),
    path(
        "e/<str:token>/bracket/wall/live/",
        bracket_pages.bracket_wall_live,
        name="bracket_wall_live",
    ),
    path("e/<str:token>/bracket/bracket.pdf", bracket_pages.bracket_pdf, name="bracket_pdf"),
]
