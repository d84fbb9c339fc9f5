"""``manage.py exporttournament ID``: print an event as one JSON document."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.events.services.transfer import event_export
from tournaments.models import Event


class Command(BaseCommand):
    help = "Print an event (entrants, rounds, tables, game records) as JSON for importtournament."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"no event {options['event_id']}")
        self.stdout.write(json.dumps(event_export(event=event), indent=2, ensure_ascii=False))
