"""What an append-only log line holds, for every log a director's changes go to."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ChangeLine(models.Model):
    """Who did what, with the state before and after; subclasses add what it is about."""

    action = models.CharField(max_length=32)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["id"]
