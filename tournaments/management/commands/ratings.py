"""``manage.py ratings --recompute``: rebuild every roster's ratings from its games."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.club.services import ratings_recompute
from tournaments.models import Roster


class Command(BaseCommand):
    help = "Rebuild ratings from the rated games (all rosters, or one with --roster)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--recompute", action="store_true", help="rebuild ratings from the games"
        )
        parser.add_argument("--roster", type=int, help="only this roster (its id)")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["recompute"]:
            raise CommandError("say what to do: --recompute")
        rosters = Roster.objects.order_by("pk")
        if options["roster"] is not None:
            rosters = rosters.filter(pk=options["roster"])
            if not rosters.exists():
                raise CommandError(f"no roster {options['roster']}")
        for roster in rosters:
            count = ratings_recompute(roster=roster)
            self.stdout.write(f"{roster.name}: {count} games rated")
