"""Every entrant and every roster player gets a private token (their own link)."""

from django.db import migrations, models

import tournaments.models.tokens


def fill_tokens(apps, schema_editor):
    for model_name in ("Entrant", "Player"):
        model = apps.get_model("tournaments", model_name)
        rows = list(model.objects.only("pk"))
        for row in rows:
            row.private_token = tournaments.models.tokens.new_private_token()
        model.objects.bulk_update(rows, ["private_token"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0008_event_table_sizes")]

    operations = [
        migrations.AddField(
            model_name="entrant",
            name="private_token",
            field=models.CharField(editable=False, max_length=32, null=True),
        ),
        migrations.AddField(
            model_name="player",
            name="private_token",
            field=models.CharField(editable=False, max_length=32, null=True),
        ),
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="entrant",
            name="private_token",
            field=models.CharField(
                default=tournaments.models.tokens.new_private_token,
                editable=False,
                max_length=32,
                unique=True,
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="private_token",
            field=models.CharField(
                default=tournaments.models.tokens.new_private_token,
                editable=False,
                max_length=32,
                unique=True,
            ),
        ),
    ]
