"""Handing a print job to the print service: one message on the broker, or a clear "not now".

The task is named, not imported, so that the services that send it and the task that
runs them do not import each other. A broker that cannot be reached costs well under
a second here (one quick retry, a short connect timeout), never a failed request.
"""

from __future__ import annotations

from common.publish import publish

# The name the task had in the scoring app: messages queued before an upgrade still run.
RENDER_TASK = "scoring.render_print_job"
SWEEP_TASK = "printing.sweep"


def send(job_id: int) -> bool:
    """Queue the drawing of job ``job_id``; False when the print service cannot be reached."""
    return publish(RENDER_TASK, job_id)
