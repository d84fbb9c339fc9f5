"""The view link (a second key per game), desk requests at closed event tables, one phone."""

import secrets

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import scoring.models


def give_every_game_a_view_token(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    for game in Game.objects.filter(view_token__isnull=True).only("pk").iterator():
        Game.objects.filter(pk=game.pk).update(view_token=secrets.token_urlsafe(32))


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0006_score_projection_per_round"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="view_token",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(give_every_game_a_view_token, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="view_token",
            field=models.CharField(
                default=scoring.models.new_view_token, editable=False, max_length=64, unique=True
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="one_phone",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="game",
            name="closed_by_desk",
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name="changerequest",
            name="kind",
            field=models.CharField(
                choices=[
                    ("undo", "Undo the last round"),
                    ("end", "End the game"),
                    ("reopen", "Reopen the game"),
                    ("correct", "Correct a round"),
                ],
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="changerequest",
            name="to_desk",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="changerequest",
            name="entry",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="changerequest",
            name="revision",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="changerequest",
            name="answered_by_user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="changerequest",
            name="reason",
            field=models.CharField(blank=True, max_length=500),
        ),
    ]
