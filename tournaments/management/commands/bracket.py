"""``manage.py bracket``: a bracket played out on the pure core, with no database.

``bracket single|double|tables --entrants N [--table-size K --advance M]
[--third-place] [--grand-final none|single|reset] [--results favourites|random --seed S]
[--format json|text]`` prints every match played, in play order. JSON:
``{"matches": [{"id": "W1-1", "entrants": [1, 8], "winners": [1]}, ...]}`` with
entrants as seeds (1 = top); ids ``W<round>-<n>`` (winners' bracket, or the single
elimination's rounds), ``L<round>-<n>``, ``3P``, ``GF`` and ``GF2`` for the reset; a
table's id is ``R<round>-T<n>`` and its winners are those who go on (at the last
table, its finish best first). Text: the same, one match a line, then the podium.
Mistakes print a message naming the option and exit with status 2.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.brackets.core import (
    BracketUserError,
    GrandFinal,
    TableRules,
    double_elimination,
    single_elimination,
    table_elimination,
)
from tournaments.brackets.core.playout import RESULTS_RULES, PlayedMatch, play_bracket
from tournaments.brackets.core.two_team import MAX_FIELD

BAD_ARGUMENTS_STATUS = 2
KINDS = ("single", "double", "tables")
FLAGS = {
    "seeds": "--entrants",
    "table_size": "--table-size",
    "advance": "--advance",
    "legal_sizes": "--table-size",
    "third_place": "--third-place",
}


def match_id(played: PlayedMatch) -> str:
    """Single elimination's rounds R1, R2, ... are printed as W1, W2, ..."""
    if played.section == "main" and played.id.startswith("R") and "-T" not in played.id:
        return "W" + played.id[1:]
    return played.id


class Command(BaseCommand):
    help = "Play a bracket out with drawn results and print every match in play order."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=KINDS)
        parser.add_argument("--entrants", type=int, required=True, help="field size")
        parser.add_argument("--table-size", type=int, default=4, help="tables: players a table")
        parser.add_argument("--advance", type=int, default=1, help="tables: how many go on")
        parser.add_argument("--third-place", action="store_true", help="single: a 3rd-place match")
        parser.add_argument(
            "--grand-final", choices=[g.value for g in GrandFinal], default=GrandFinal.RESET.value
        )
        parser.add_argument("--results", choices=RESULTS_RULES, default="favourites")
        parser.add_argument("--seed", type=int, default=0, help="same seed, same results")
        parser.add_argument("--format", choices=("json", "text"), default="json")

    def fail(self, message: str) -> None:
        self.stderr.write(message)
        sys.exit(BAD_ARGUMENTS_STATUS)

    def handle(self, *args: Any, **options: Any) -> None:
        count = options["entrants"]
        if not 2 <= count <= MAX_FIELD:
            self.fail(f"--entrants must be between 2 and {MAX_FIELD}, not {count}")
        seeds = [str(number) for number in range(1, count + 1)]
        kind = options["kind"]
        try:
            if kind == "single":
                bracket: Any = single_elimination(seeds, third_place=options["third_place"])
            elif kind == "double":
                bracket = double_elimination(seeds, grand_final=GrandFinal(options["grand_final"]))
            else:
                size = options["table_size"]
                rules = TableRules(size, options["advance"], tuple(range(2, size + 1)))
                bracket = table_elimination(seeds, rules)
        except BracketUserError as error:
            flag = FLAGS.get(error.field or "", "")
            self.fail(f"{flag}: {error}" if flag else str(error))
            return
        played, state = play_bracket(bracket, results=options["results"], seed=options["seed"])
        if options["format"] == "json":
            matches = [
                {
                    "id": match_id(match),
                    "entrants": [int(name) for name in match.entrants],
                    "winners": [int(name) for name in match.advancing],
                }
                for match in played
            ]
            self.stdout.write(json.dumps({"matches": matches}))
            return
        title = {"single": "Single elimination", "double": "Double elimination"}.get(
            kind, f"Tables of {options['table_size']}, top {options['advance']} go on"
        )
        lines = [f"{title}: {count} entrants, results: {options['results']}", ""]
        width = max(len(match_id(m)) for m in played) if played else 2
        for match in played:
            seats = (
                " v ".join(match.entrants)
                if len(match.entrants) == 2
                else ", ".join(match.entrants)
            )
            lines.append(f"{match_id(match):<{width}}  {seats}  ->  {', '.join(match.advancing)}")
        podium = [p for p in state.placements if p.first <= 3]
        if podium:
            lines.append("")
            for place in sorted(podium, key=lambda p: (p.first, int(p.entrant))):
                shared = f"{place.first}-{place.last}" if place.last != place.first else place.first
                lines.append(f"{shared}. {place.entrant}")
        self.stdout.write("\n".join(lines))
