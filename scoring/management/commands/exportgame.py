"""``manage.py exportgame ID``: print a stored game as a JSON game record."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from scoring.management.commands._database import ensure_embedded_database
from scoring.models import Game
from scoring.selectors import game_record_dict


class Command(BaseCommand):
    help = "Print a game as a JSON game record (scores identically with `manage.py score`)."

    def add_arguments(self, parser):
        parser.add_argument("game_id", type=int)

    def handle(self, *args, **options):
        ensure_embedded_database()
        game = Game.objects.filter(pk=options["game_id"]).first()
        if game is None:
            raise CommandError(f"no game {options['game_id']}")
        self.stdout.write(json.dumps(game_record_dict(game), indent=2, ensure_ascii=False))
