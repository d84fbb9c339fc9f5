"""``manage.py schedule``: a dry run of the table scheduler, as game-record.md says.

``schedule --game GAME --players N --rounds R [--format mixer|swiss|round_robin|progressive]
[--table-size K] [--seed S] [--search-steps N]`` prints
``{"rounds": [{"tables": [...], "byes": [...]}], "report": {...}}`` with entrants
numbered 0..N-1. The game's table facts (legal sizes, sides) are read from its
scoring engine and handed to the pure scheduler as plain data.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.engines.registry import ENGINES
from tournaments.seating.adapter import table_policy
from tournaments.seating.core import FORMATS, SchedulingError, plan_schedule
from tournaments.seating.core.dryrun import MAX_ENTRANTS, MAX_ROUNDS

BAD_ARGUMENTS_STATUS = 2


class Command(BaseCommand):
    help = "Plan the seating of an event round by round (a dry run) and print it as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, help=f"one of {', '.join(ENGINES)}")
        parser.add_argument("--players", type=int, required=True, help="number of entrants")
        parser.add_argument("--rounds", type=int, required=True, help="tournament rounds")
        parser.add_argument("--format", choices=FORMATS, default="mixer")
        parser.add_argument("--table-size", type=int, default=None, help="seat every table so")
        parser.add_argument("--seed", type=int, default=0, help="same seed, same schedule")
        parser.add_argument(
            "--search-steps",
            type=int,
            default=0,
            help="anneal the whole schedule this many steps where no construction covers it",
        )

    def fail(self, message: str) -> None:
        self.stderr.write(message)
        sys.exit(BAD_ARGUMENTS_STATUS)

    def handle(self, *args: Any, **options: Any) -> None:
        game = options["game"]
        if game not in ENGINES:
            self.fail(f"--game must be one of {', '.join(ENGINES)}, not {game!r}")
        players, rounds = options["players"], options["rounds"]
        if not 1 <= players <= MAX_ENTRANTS:
            self.fail(f"--players must be between 1 and {MAX_ENTRANTS}, not {players}")
        if not 1 <= rounds <= MAX_ROUNDS:
            self.fail(f"--rounds must be between 1 and {MAX_ROUNDS}, not {rounds}")
        try:
            policy = table_policy(game, options["table_size"])
            schedule = plan_schedule(
                list(range(players)),
                policy,
                rounds,
                format=options["format"],
                seed=options["seed"],
                search_steps=max(options["search_steps"], 0),
            )
        except SchedulingError as error:
            flag = {"table_size": "--table-size"}.get(error.field or "", "")
            self.fail(f"{flag}: {error}" if flag else str(error))
            return
        self.stdout.write(json.dumps(schedule.as_dict()))
