"""Addresses the event pages had before they all moved under /desk/ and /e/<code>/.

Links already printed (a bracket's QR code, a bookmarked desk page) keep working: each
old address answers a permanent redirect to its new one. 308 keeps the method and body,
so an old form that posts still posts to the new address.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.urls import path, reverse


class PermanentRedirectKeepingMethod(HttpResponsePermanentRedirect):
    status_code = 308


def moved_to(name: str, **renamed: str) -> Callable[..., HttpResponse]:
    """A view sending an old address to the URL named ``name`` (arguments renamed as given)."""

    def redirect(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        arguments = {renamed.get(key, key): value for key, value in kwargs.items()}
        target = reverse(f"tournaments:{name}", kwargs=arguments)
        query = request.META.get("QUERY_STRING", "")
        return PermanentRedirectKeepingMethod(f"{target}?{query}" if query else target)

    return redirect


urlpatterns = [
    path("bracket/<str:token>/", moved_to("bracket")),
    path("bracket/<str:token>/live/", moved_to("bracket_live")),
    path("bracket/<str:token>/bracket.pdf", moved_to("bracket_pdf")),
    path("events/<int:event_id>/bracket/", moved_to("bracket_desk", event_id="pk")),
    path("events/<int:event_id>/bracket/print/", moved_to("bracket_print", event_id="pk")),
    path("print/events/<int:event_id>/<slug:kind>/", moved_to("printout", event_id="pk")),
]
