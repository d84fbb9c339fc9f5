"""The Content-Security-Policy and Permissions-Policy headers of every answer.

The Content-Security-Policy is django-csp's (``settings.CONTENT_SECURITY_POLICY``), on
every answer but a PDF: a browser shows a PDF in a page of its own making, with inline
styles and a plugin that the site's policy would refuse (Chromium's viewer then draws a
sliver of the file, or nothing), and a PDF of ours runs no script anyway.

The Permissions-Policy says which browser features a page may use.
``settings.PERMISSIONS_POLICY`` maps each feature to the origins allowed to use it:
``["self"]`` for this site alone, ``[]`` for nobody. A feature left out keeps the
browser's default, so the setting names every powerful feature the site does not use.
The header is written once, when the server starts, and set on every answer that does
not carry one already.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

HEADER = "Permissions-Policy"


def header_value(policy: Mapping[str, Sequence[str]]) -> str:
    """``{"camera": [], "screen-wake-lock": ["self"]}`` -> ``camera=(), screen-wake-lock=(self)``.

    Origins other than ``self`` are quoted, as the header's syntax (a structured field)
    wants them."""
    parts = []
    for feature, allowed in policy.items():
        if isinstance(allowed, str):
            raise ImproperlyConfigured(
                f"PERMISSIONS_POLICY[{feature!r}] must be a list of origins, not a string"
            )
        items = [origin if origin == "self" else f'"{origin}"' for origin in allowed]
        parts.append(f"{feature}=({' '.join(items)})")
    return ", ".join(parts)


class PermissionsPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response
        self.value = header_value(getattr(settings, "PERMISSIONS_POLICY", {}))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.value and HEADER not in response:
            response[HEADER] = self.value
        return response


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, passing PDFs by."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.get("Content-Type", "").startswith("application/pdf"):
            return response
        return super().process_response(request, response)
