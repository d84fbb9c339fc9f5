"""Print jobs: a stack of sheets rendered by a worker, its progress and its PDF."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import models
from django.utils import timezone

from printing.registry import SOURCES

STALE_AFTER = timedelta(minutes=10)  # a job left queued or running this long is queued again


def new_print_token() -> str:
    return secrets.token_urlsafe(16)


class PrintJob(models.Model):
    """A stack of sheets rendered by a worker: what to print, how far it got, the PDF."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting for the printer"
        RUNNING = "running", "Drawing the sheets"
        DONE = "done", "Ready"
        FAILED = "failed", "Failed"

    class Paper(models.TextChoices):
        A4 = "A4", "A4"
        LETTER = "LETTER", "US Letter"

    # The same request (same sheets, same paper, same game revisions) gets the same job.
    request_key = models.CharField(max_length=64, unique=True)
    token = models.CharField(max_length=32, unique=True, default=new_print_token, editable=False)
    # What to print, for the sheet source its "kind" names (``printing.registry``):
    # {"kind": "blank", "game", "players", "copies"[, "options"]}
    # or {"kind": "games", "games": [game ids]}
    what = models.JSONField()
    paper_size = models.CharField(max_length=8, choices=Paper.choices, default=Paper.A4)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    attempts = models.PositiveSmallIntegerField(default=0)
    # The PDF lives in the database, which the web processes and the workers already share.
    pdf = models.BinaryField(null=True, blank=True, editable=False)
    size = models.PositiveIntegerField(default=0)
    filename = models.CharField(max_length=120, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"print job {self.pk} ({self.get_status_display()})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def stuck(self) -> bool:
        """Queued or running, and untouched for so long that no worker has it any more."""
        waiting = self.status in (self.Status.QUEUED, self.Status.RUNNING)
        return (
            waiting
            and self.updated_at is not None
            and (timezone.now() - self.updated_at > STALE_AFTER)
        )

    @property
    def about(self) -> str:
        return SOURCES.describe(self.what or {}, self.paper_size)

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        if not self.progress_total:
            return 0
        return min(100, round(100 * self.progress_done / self.progress_total))
