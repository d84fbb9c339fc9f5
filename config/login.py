"""The sign-in page (the admin's, for directors too), with a safe place to go next.

Django's login goes to ``next`` when it is safe, else to ``LOGIN_REDIRECT_URL``, which
nobody here serves (``/accounts/profile/``). Here a ``next`` that is missing, empty or
unsafe (another site, a scheme) becomes the page the person came from, when that is a
page of this site other than the sign-in page itself, or else the director's desk.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib import admin
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpRequest, HttpResponse, QueryDict
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache


def safe(request: HttpRequest, url: str) -> bool:
    return bool(url) and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )


def fallback(request: HttpRequest) -> str:
    """Where to go after signing in when ``next`` cannot be followed."""
    came_from = request.headers.get("Referer", "")
    if safe(request, came_from):
        parts = urlsplit(came_from)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        if parts.path != request.path and not parts.path.startswith(reverse("admin:logout")):
            return path
    return reverse("tournaments:desk")


def with_next(data: QueryDict, place: str) -> Any:
    """``data`` with ``next`` set to ``place``, as immutable as the request's own."""
    changed = data.copy()
    changed[REDIRECT_FIELD_NAME] = place
    changed._mutable = False
    return changed


@never_cache
def login(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        if not safe(request, request.POST.get(REDIRECT_FIELD_NAME, "")):
            request.POST = with_next(request.POST, fallback(request))
    elif not safe(request, request.GET.get(REDIRECT_FIELD_NAME, "")):
        request.GET = with_next(request.GET, fallback(request))
    return admin.site.login(request)
