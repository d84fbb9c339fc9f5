"""``manage.py importtournament FILE --owner USERNAME``: recreate an exported event.

The whole document is validated first (``event_import_check``); every problem is printed
with its path (``rounds[0].tables[1].seats[0].entrant: ...``) and nothing is written.
"""

from __future__ import annotations

import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.jsondoc import DocumentError, read_json
from tournaments.errors import TournamentError
from tournaments.events.document import IMPORT_LARGEST
from tournaments.events.services.transfer import event_import


class Command(BaseCommand):
    help = "Read an event exported by exporttournament ('-' for standard input) into a new event."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--owner", required=True, help="the director who owns the event")

    def handle(self, *args: Any, **options: Any) -> None:
        owner = get_user_model().objects.filter(username=options["owner"]).first()
        if owner is None:
            raise CommandError(f"no user {options['owner']!r}")
        try:
            if options["file"] == "-":
                raw: bytes | str = sys.stdin.read()
            else:
                with open(options["file"], "rb") as handle:
                    raw = handle.read(IMPORT_LARGEST + 1)
            data = read_json(raw, largest=IMPORT_LARGEST)
        except OSError as error:
            raise CommandError(f"cannot read {options['file']}: {error.strerror}") from None
        except DocumentError as error:
            raise CommandError(f"cannot read {options['file']}: it {error.reason}") from None
        try:
            event = event_import(data=data, owner=owner)
        except TournamentError as error:
            raise CommandError(
                "the document was not imported (nothing was written):\n"
                + "\n".join(
                    f"{p.field}: {p.message}" if p.field else p.message for p in error.problems
                )
            ) from None
        self.stdout.write(f"imported event {event.pk}: {event.name}")
