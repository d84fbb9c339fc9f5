from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce


def number_the_last_rounds(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    Round = apps.get_model("scoring", "Round")
    last = (
        Round.objects.filter(game=OuterRef("pk"))
        .order_by()
        .values("game")
        .annotate(last=Max("number"))
        .values("last")
    )
    Game.objects.update(last_round_number=Coalesce(Subquery(last), 0))


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_game_kind_from_registry"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="last_round_number",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(number_the_last_rounds, migrations.RunPython.noop),
    ]
