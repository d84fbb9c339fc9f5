"""Load demo data once: a director login and a casual game of each kind, half played."""

from __future__ import annotations

import importlib
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from scoring.engines.registry import ENGINES
from scoring.games import kit_for
from scoring.models import Game
from scoring.services import Actor, game_create

DIRECTOR = "director"
DEMO_DEVICE = "demo"


class Command(BaseCommand):
    help = "Create the demo director login and demo games, once (safe to run again)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--base-url", default="http://127.0.0.1:8000", help="where the links shown point"
        )

    def handle(self, *args, **options):
        base = options["base_url"].rstrip("/")
        password = self.director_password()
        created = self.demo_games()
        self.stdout.write(self.style.SUCCESS("Tablescore demo data is ready."))
        for game in created:
            self.stdout.write(f"  demo {game.engine.title}: {base}/t/{game.table_token}/")
        self.stdout.write(f"Director login: {base}/admin/  user {DIRECTOR}  password {password}")

    def director_password(self) -> str:
        users = get_user_model()
        remembered = Path(settings.BASE_DIR) / ".demo-director"
        user = users.objects.filter(username=DIRECTOR).first()
        if user and remembered.exists():
            return remembered.read_text().strip()
        password = secrets.token_urlsafe(9)
        if user is None:
            user = users(username=DIRECTOR, is_staff=True, is_superuser=True)
        user.set_password(password)
        user.save()
        remembered.write_text(password + "\n")
        return password

    def demo_games(self) -> list[Game]:
        """One casual game of each kind, a few rounds in; the existing ones when run again."""
        games = []
        for key in ENGINES:
            game = Game.objects.filter(kind=key, events__device=DEMO_DEVICE).first()
            if game is None:
                sample = importlib.import_module(f"scoring.engines.samples.{key}").sample_record
                kit = kit_for(key)
                record = sample(rounds=20, seed=7, players=kit.demo_players)
                record["rounds"] = record["rounds"][: kit.demo_rounds]
                # Samples stretch a game's length for benchmarks; a demo plays the usual length.
                for stretched in ("target", "deals"):
                    record["options"].pop(stretched, None)
                for ending in ENGINES[key].record_extras:
                    record.pop(ending, None)
                game = game_create(record=record, actor=Actor(device=DEMO_DEVICE)).game
            games.append(game)
        return games
