"""Print job services: ask for a stack of sheets, ask again after a failure.

One call per change, atomic. The drawing itself happens in a worker
(``printing.tasks`` -> ``printing.worker``), queued once the transaction commits
so that the worker always finds the row.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from printing.models import STALE_AFTER, PrintJob
from printing.paper import default_paper, normalise_paper
from printing.registry import SOURCES
from printing.tasks import render_print_job

KEEP_JOBS = timedelta(days=7)  # finished print jobs (and their PDFs) are dropped after this


def request_key(what: Mapping[str, Any], paper: str) -> str:
    """The same request (same sheets, same paper, same game revisions) has the same key."""
    material: dict[str, Any] = {"what": what, "paper": paper}
    material.update(SOURCES.for_request(what).freshness(what))
    canonical = json.dumps(material, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def printjob_create(*, what: Mapping[str, Any], paper: str | None = None) -> PrintJob:
    """The print job for this request: an existing one when asked before, else a new one.

    A finished or running job is reused; a failed or stale one is queued again. The
    task is queued after the transaction commits, so the worker always finds the row.
    ``what`` names its sheet source by its ``kind`` (``printing.registry``).
    """
    paper = normalise_paper(paper or default_paper())
    source = SOURCES.for_request(what)
    key = request_key(what, paper)
    with transaction.atomic():
        job, created = PrintJob.objects.select_for_update().get_or_create(
            request_key=key,
            defaults={"what": dict(what), "paper_size": paper, "filename": source.filename(what)},
        )
        if created:
            _queue(job.pk)
            _forget_old_jobs()
        else:
            _queue_again_if_needed(job)
    # Outside a transaction the task has been queued (or, eager, has run) by now.
    return PrintJob.objects.defer("pdf").get(pk=job.pk)


def printjob_retry(*, job_id: int) -> PrintJob:
    """Queue a failed (or stuck) job again; a job that is fine is left as it is."""
    with transaction.atomic():
        job = PrintJob.objects.select_for_update().defer("pdf").get(pk=job_id)
        _queue_again_if_needed(job)
    return PrintJob.objects.defer("pdf").get(pk=job_id)


def _forget_old_jobs() -> None:
    """Print jobs are not records: a week on, their PDFs go, so the table stays small."""
    PrintJob.objects.filter(updated_at__lt=timezone.now() - KEEP_JOBS).delete()


def _queue_again_if_needed(job: PrintJob) -> None:
    stale = timezone.now() - job.updated_at > STALE_AFTER
    if job.status == PrintJob.Status.FAILED or (
        job.status in (PrintJob.Status.QUEUED, PrintJob.Status.RUNNING) and stale
    ):
        job.status = PrintJob.Status.QUEUED
        job.error = ""
        job.progress_done = 0
        job.save(update_fields=["status", "error", "progress_done", "updated_at"])
        _queue(job.pk)


def _queue(job_id: int) -> None:
    transaction.on_commit(lambda: render_print_job.delay(job_id))
