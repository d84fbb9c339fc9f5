"""Django's makemessages, set up for this project once, so that every run finds the same.

- The cores mark a problem's template with ``N_`` (see ``scoring.engines.base``): xgettext
  is told that keyword, so those templates land in the catalogue beside the pages' words.
- The folders that are no part of what a person sees (tests, benchmarks, deployment,
  collected static files) are passed over.
- Each entry names the files it was found in, not the lines: a change elsewhere in a
  file does not move every entry of the catalogue.

``manage.py makemessages -l fr_CA`` brings ``locale/fr_CA/LC_MESSAGES/django.po`` up to
date; translate the new entries, then ``manage.py compilemessages`` (see the README).
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import makemessages

# Marks of a template to translate later, beyond Django's own (gettext_noop and the rest).
KEYWORDS = ("N_",)
# Folders no person reads a string of.
NOT_SCANNED = ("tests", "bench", "deploy", "staticfiles", "test-artifacts", "media", "locale")


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        *(f"--keyword={keyword}" for keyword in KEYWORDS),
    ]

    def handle(self, *args: Any, **options: Any) -> None:
        options["ignore_patterns"] = [
            *(options.get("ignore_patterns") or []),
            *(f"{folder}/*" for folder in NOT_SCANNED),
        ]
        if not options.get("add_location") and not options.get("no_location"):
            options["add_location"] = "file"
        super().handle(*args, **options)
