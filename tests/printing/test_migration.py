"""Print jobs made while they lived in the scoring app survive the move to printing."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType as LiveContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from printing.models import PrintJob

BEFORE = [
    ("contenttypes", "0002_remove_content_type_name"),
    ("scoring", "0003_roundevent_reopen"),
    ("printing", None),
]


def migrate(targets):
    """Take the test database to ``targets``; the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    nodes = [target for target in targets if target[1] is not None]
    return executor.loader.project_state(nodes).apps


def latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.fixture
def back_to_latest():
    yield
    migrate(latest())  # whatever happened, later tests find today's tables


@pytest.mark.django_db(transaction=True)
def test_a_print_job_made_before_the_move_is_still_there_after_it(back_to_latest):
    old_apps = migrate(BEFORE)
    OldJob = old_apps.get_model("scoring", "PrintJob")
    ContentType = old_apps.get_model("contenttypes", "ContentType")
    ContentType.objects.get_or_create(app_label="scoring", model="printjob")
    old = OldJob.objects.create(
        request_key="k" * 64,
        token="an-old-print-token-0123",
        what={"kind": "blank", "game": "roolz", "players": 4, "copies": 2},
        paper_size="LETTER",
        status="done",
        progress_done=2,
        progress_total=2,
        pdf=b"%PDF-1.4 old",
        size=12,
        filename="roolz-4-players-blank-x2.pdf",
    )
    with connection.cursor() as cursor:
        tables_before = set(connection.introspection.table_names(cursor))
    assert "scoring_printjob" in tables_before

    migrate(latest())

    with connection.cursor() as cursor:
        tables_after = set(connection.introspection.table_names(cursor))
    assert "printing_printjob" in tables_after
    assert "scoring_printjob" not in tables_after
    job = PrintJob.objects.get(pk=old.pk)
    assert job.token == "an-old-print-token-0123"
    assert job.status == PrintJob.Status.DONE
    assert bytes(job.pdf) == b"%PDF-1.4 old"
    assert job.what["copies"] == 2 and job.paper_size == "LETTER"
    assert job.about == "2 blank Roolz sheets for 4 players, US Letter"
    assert LiveContentType.objects.filter(app_label="printing", model="printjob").exists()
    assert not LiveContentType.objects.filter(app_label="scoring", model="printjob").exists()
    # New jobs keep numbering after the old ones.
    new = PrintJob.objects.create(request_key="n" * 64, what={"kind": "games", "games": []})
    assert new.pk > old.pk


@pytest.mark.django_db(transaction=True)
def test_the_move_can_be_undone_with_the_rows(back_to_latest):
    job = PrintJob.objects.create(request_key="u" * 64, what={"kind": "games", "games": [1]})
    old_apps = migrate(BEFORE)
    assert old_apps.get_model("scoring", "PrintJob").objects.filter(pk=job.pk).exists()
    migrate(latest())
    assert PrintJob.objects.filter(pk=job.pk).exists()
