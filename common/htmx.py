"""The request type of views that read ``request.htmx``.

django-htmx's middleware sets ``htmx`` on every request; Django's own
``HttpRequest`` does not declare it, so views name this subclass instead.
"""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
