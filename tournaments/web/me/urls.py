"""A player's own pages, under /me/<private token>/, and the desk's card about them."""

from django.urls import path

from tournaments.web.me import desk_card, views

urlpatterns = [
    path("me/<str:token>/", views.me, name="me"),
    path("me/<str:token>/check-in/", views.check_in, name="me_check_in"),
    path("me/<str:token>/drop/", views.drop, name="me_drop"),
    path("me/<str:token>/table/", views.open_table, name="me_table"),
    path("desk/<int:pk>/own-links/", desk_card.self_service_set, name="self_service_set"),
    path("desk/<int:pk>/own-links/live/", desk_card.self_service_live, name="self_service_live"),
    path(
        "desk/<int:pk>/own-links/drops/<int:entrant_id>/",
        desk_card.drop_answer,
        name="self_drop_answer",
    ),
]
