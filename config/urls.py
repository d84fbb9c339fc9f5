from django.contrib import admin
from django.urls import include, path

from config import login, views
from config.api import api

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("healthz/live", views.healthz_live, name="healthz_live"),
    path("healthz/monitor", views.healthz_monitor, name="healthz_monitor"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("language/<str:code>/", views.switch_language, name="switch_language"),
    path("jsi18n/<str:code>.js", views.javascript_catalogue, name="javascript_catalogue"),
    # Before the admin's own: a next that cannot be followed goes back or to the desk.
    path("admin/login/", login.login, name="login"),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("", include("printing.urls")),
    path("", include("scoring.urls")),
    path("", include("tournaments.web.urls")),
    path("", include("tournaments.web.club.urls")),
]

handler500 = "config.unavailable.server_error_or_unavailable"
