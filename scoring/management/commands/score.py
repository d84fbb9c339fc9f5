"""``manage.py score RECORD.json`` (or ``-``): score a game record, as game-record.md says."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from common.jsondoc import DocumentError, read_json
from scoring.engines.base import InvalidRecord
from scoring.engines.registry import engine_for, score_data
from scoring.engines.text import score_table

INVALID_RECORD_STATUS = 2
# A game record of the longest game is well under a megabyte.
RECORD_LARGEST = 16 * 1024 * 1024


def read_json_argument(path: str) -> Any:
    """The decoded JSON of a file or of standard input ('-'); CommandError when unreadable."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None
    try:
        return read_json(text, largest=RECORD_LARGEST)
    except DocumentError as error:
        raise CommandError(f"{path} is not valid JSON: it {error.reason}") from None


class Command(BaseCommand):
    help = "Score a JSON game record and print the scored game (JSON, or a table for people)."

    def add_arguments(self, parser):
        parser.add_argument("record", help="a game record file, or - for standard input")
        parser.add_argument("--format", choices=["json", "table"], default="json")

    def handle(self, *args, **options):
        try:
            data = read_json_argument(options["record"])
        except CommandError as error:
            self.stderr.write(str(error))
            sys.exit(INVALID_RECORD_STATUS)
        try:
            scored = score_data(data)
        except InvalidRecord as invalid:
            for problem in invalid.problems:
                self.stderr.write(str(problem))
            sys.exit(INVALID_RECORD_STATUS)
        if options["format"] == "table":
            self.stdout.write(score_table(scored, engine_for(scored.game)), ending="")
        else:
            self.stdout.write(json.dumps(scored.as_dict(), indent=2, ensure_ascii=False))
