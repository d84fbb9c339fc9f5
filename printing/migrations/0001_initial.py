# Print jobs move here from the scoring app with every row: the model takes over the
# existing table (scoring_printjob), which is then renamed to printing_printjob.

import printing.models
from django.db import migrations, models


def content_type_follows(apps, schema_editor):
    """Permissions and admin history of print jobs follow them to this app."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if not ContentType.objects.using(db).filter(app_label="printing", model="printjob").exists():
        ContentType.objects.using(db).filter(app_label="scoring", model="printjob").update(
            app_label="printing"
        )


def content_type_goes_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if not ContentType.objects.using(db).filter(app_label="scoring", model="printjob").exists():
        ContentType.objects.using(db).filter(app_label="printing", model="printjob").update(
            app_label="scoring"
        )


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("scoring", "0004_printjob_moves_to_printing"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="PrintJob",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("request_key", models.CharField(max_length=64, unique=True)),
                        (
                            "token",
                            models.CharField(
                                default=printing.models.new_print_token,
                                editable=False,
                                max_length=32,
                                unique=True,
                            ),
                        ),
                        ("what", models.JSONField()),
                        (
                            "paper_size",
                            models.CharField(
                                choices=[("A4", "A4"), ("LETTER", "US Letter")],
                                default="A4",
                                max_length=8,
                            ),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("queued", "Waiting for the printer"),
                                    ("running", "Drawing the sheets"),
                                    ("done", "Ready"),
                                    ("failed", "Failed"),
                                ],
                                default="queued",
                                max_length=8,
                            ),
                        ),
                        ("progress_done", models.PositiveIntegerField(default=0)),
                        ("progress_total", models.PositiveIntegerField(default=0)),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        ("pdf", models.BinaryField(blank=True, editable=False, null=True)),
                        ("size", models.PositiveIntegerField(default=0)),
                        ("filename", models.CharField(blank=True, max_length=120)),
                        ("error", models.TextField(blank=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                    ],
                    options={"ordering": ["-created_at"], "db_table": "scoring_printjob"},
                ),
            ],
            database_operations=[],
        ),
        migrations.AlterModelTable(name="printjob", table=None),
        migrations.RunPython(content_type_follows, content_type_goes_back),
    ]
