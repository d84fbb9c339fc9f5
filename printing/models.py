"""Print jobs: a stack of sheets rendered by a worker, its progress and its PDF."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from printing.registry import SOURCES

# A job left unfinished this long has outlived every automatic restart: the page offers
# "try again" (the print service, or its sweep, is not running).
STALE_AFTER = timedelta(minutes=10)


def stall_after() -> timedelta:
    """A running job whose progress has not moved this long has lost its worker."""
    return timedelta(seconds=settings.PRINT_STALL_SECONDS)


def new_print_token() -> str:
    return secrets.token_urlsafe(16)


class PrintJob(models.Model):
    """A stack of sheets rendered by a worker: what to print, how far it got, the PDF."""

    class Status(models.TextChoices):
        # Not on the queue: the print service (the broker) could not be reached. The
        # sweep, or the next look at the job's page, sends it when the service is back.
        WAITING = "waiting", "Waiting for the print service"
        QUEUED = "queued", "In line for the print service"
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
    # Runs taken over from a worker that stopped mid-way, since the job was last asked for.
    restarts = models.PositiveSmallIntegerField(default=0)
    # The run that holds the job: a run that was taken over writes nothing more.
    run_id = models.CharField(max_length=32, blank=True, editable=False)
    # The message (Celery task id) of that run: delivered again, it takes the job back at once.
    task_id = models.CharField(max_length=64, blank=True, editable=False)
    # When a message for this job was last sent to the print service (or tried).
    sent_at = models.DateTimeField(null=True, blank=True, editable=False)
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
        """Unfinished and untouched for so long that only a person can start it again."""
        return (
            not self.finished
            and self.updated_at is not None
            and (timezone.now() - self.updated_at > STALE_AFTER)
        )

    @property
    def stalled(self) -> bool:
        """Running, but its progress has not moved for a while: its worker has stopped."""
        return (
            self.status == self.Status.RUNNING
            and self.updated_at is not None
            and (timezone.now() - self.updated_at > stall_after())
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
