"""The roster desk and the public season, leaderboard and player pages."""

from django.urls import path

from tournaments.web.club import links, views

app_name = "club"
urlpatterns = [
    path("desk/club/", views.club, name="club"),
    path("desk/club/players/add/", views.player_add, name="player_add"),
    path("desk/club/players/import/", views.roster_import, name="roster_import"),
    path("desk/club/players/merge/", views.player_merge, name="player_merge"),
    path("desk/club/players/<int:player_id>/", views.player_desk, name="player_desk"),
    path("desk/club/seasons/new/", views.season_new, name="season_new"),
    path("desk/club/links/", links.roster_links, name="roster_links"),
    path("desk/club/links/passes/", links.roster_passes_print, name="roster_passes"),
    path(
        "desk/club/links/<int:player_id>/reissue/",
        links.player_link_reissue,
        name="player_link_reissue",
    ),
    path("desk/club/club.json", views.roster_json, name="roster_json"),
    path("desk/club/club.json/import/", views.roster_json_import, name="roster_json_import"),
    path("desk/<int:pk>/club/", views.event_night, name="event_night"),
    path("s/<str:token>/", views.season_page, name="season"),
    path(
        "s/<str:token>/projector/",
        views.season_page,
        {"projector": True},
        name="season_projector",
    ),
    path("s/<str:token>/season.csv", views.season_csv, name="season_csv"),
    path("s/<str:token>/season.pdf", views.season_pdf, name="season_pdf"),
    path("r/<str:token>/", views.leaderboard, name="leaderboard"),
    path("r/<str:token>/players/<int:player_id>/", views.player, name="player"),
]
