"""The JSON API on django-ninja: ``api`` is mounted at ``/api/`` by config.urls."""

from scoring.api.app import api

__all__ = ["api"]
