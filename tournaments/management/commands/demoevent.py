"""Load a demo event once: a club night of Roolz, round 1 seated, two tables played."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.urls import reverse

from scoring.selectors import game_score, side_in_round
from scoring.services import Actor, round_confirm, round_record
from tournaments.events import services
from tournaments.models import Event

DEMO_EVENT = "Demo club night"
PLAYERS = (
    "Ann", "Ben", "Cat", "Dan", "Eve", "Finn", "Gus", "Hana",
    "Ida", "Jon", "Kai", "Léa", "Max", "Noor", "Óscar", "Pia",
)  # fmt: skip
# Two deals of Roolz to a target of 300, both bid and made by seat 1's team, which wins.
DEALS = (
    {"bidder": 0, "bid": 170, "won": {"A": 200, "B": 100}},
    {"bidder": 0, "bid": 170, "won": {"A": 200, "B": 100}},
)


class Command(BaseCommand):
    help = "Create a demo event for the director's desk, once (safe to run again)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")
        parser.add_argument("--director", default="director", help="the user who runs it")

    def handle(self, *args: Any, **options: Any) -> None:
        base = options["base_url"].rstrip("/")
        director = User.objects.filter(username=options["director"]).first()
        if director is None:
            self.stderr.write(f"No user {options['director']!r}: run manage.py demo first.")
            return
        event = Event.objects.filter(owner=director, name=DEMO_EVENT).first() or self.create(
            director
        )
        desk = reverse("tournaments:desk_event", args=[event.pk])
        draw = reverse("tournaments:draw", args=[event.public_token])
        self.stdout.write(f"  demo event, director's desk: {base}{desk}")
        self.stdout.write(f"  demo event, players' draw:   {base}{draw}")

    def create(self, director: User) -> Event:
        event = services.event_create(
            owner=director, name=DEMO_EVENT, game="roolz", options={"target": 300}
        )
        services.entrants_import_csv(event=event, text="\n".join(PLAYERS), user=director)
        draft = services.tournament_round_generate(event=event, user=director)
        published = services.tournament_round_publish(event=event, round=draft, user=director)
        for table in list(published.tables.all())[:2]:
            game = table.game
            assert game is not None
            for number, entry in enumerate(DEALS, start=1):
                round_record(game=game, number=number, entry=entry, actor=Actor(seat=0))
                score = game_score(game)
                other = min(set(range(len(score.players))) - side_in_round(game, score, number, 0))
                round_confirm(game=game, number=number, actor=Actor(seat=other))
        return event
