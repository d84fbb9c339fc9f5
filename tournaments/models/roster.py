"""Roster, seasons and ratings (models of the tournaments app, loaded by its models module).

A director keeps one roster of players known across events. An event joins the roster
as a club night (``ClubNight``): it may belong to a season and may be rated. Entrants
link to roster players (one link per member of a fixed team). Ratings are a projection
of the rated games (``RatedGame``: each game's sides and places as they were rated),
rebuilt by ``manage.py ratings --recompute``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tournaments.models.log import ChangeLine
from tournaments.models.tokens import new_public_token


class Roster(models.Model):
    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="roster"
    )
    name = models.CharField(max_length=80, default="Club")
    public_token = models.CharField(
        max_length=24, unique=True, default=new_public_token, editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=40)
    folded = models.CharField(max_length=40, db_index=True)  # case and accents folded
    contact = models.CharField(max_length=120, blank=True)
    # A duplicate merged into another player: kept so old links can be followed.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="merged"
    )
    # The rating as it stands (a projection of the rated games; none before the first).
    mu = models.FloatField(null=True, blank=True)
    sigma = models.FloatField(null=True, blank=True)
    rated_games = models.PositiveIntegerField(default=0)
    # A rating brought in from elsewhere (a club's export): where this player's ratings
    # start from instead of the model's default.
    base_mu = models.FloatField(null=True, blank=True)
    base_sigma = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A series of club nights and the rule their table is made by (chosen up front)."""

    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    counting = models.CharField(max_length=16, default="all")
    best = models.PositiveSmallIntegerField(default=0)
    drop = models.PositiveSmallIntegerField(default=0)
    min_nights = models.PositiveSmallIntegerField(default=0)
    place_points = models.JSONField(default=list)
    attendance = models.PositiveSmallIntegerField(default=0)
    tiebreaks = models.JSONField(default=list)
    public_token = models.CharField(
        max_length=24, unique=True, default=new_public_token, editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revision = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class ClubNight(models.Model):
    """An event as one night of the roster: in a season or not, rated or not."""

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="club_night"
    )
    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="nights")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="nights"
    )
    rated = models.BooleanField(default=True)
    # Seat tables so that strong players spread out (the seating report shows table means).
    balanced = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.event} ({self.roster})"


class EntrantPlayer(models.Model):
    """Which roster player an entrant is (or, for a fixed team, each of its members)."""

    entrant = models.ForeignKey(
        "tournaments.Entrant", on_delete=models.CASCADE, related_name="player_links"
    )
    member = models.PositiveSmallIntegerField(default=0)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entrant", "member"], name="one_player_per_member")
        ]

    def __str__(self) -> str:
        return f"{self.entrant} = {self.player}"


class RatedGame(models.Model):
    """A finished table game as it was rated: sides of player ids and their places.

    Ordered by (``played_at``, ``round_number``, ``table_number``, ``game``): the event's
    date, then its tournament round and table.
    """

    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="rated_games")
    game = models.OneToOneField("scoring.Game", on_delete=models.CASCADE, related_name="+")
    played_at = models.DateTimeField()
    round_number = models.PositiveSmallIntegerField()
    table_number = models.PositiveSmallIntegerField()
    sides = models.JSONField()
    places = models.JSONField()

    class Meta:
        ordering = ["played_at", "round_number", "table_number", "game_id"]
        indexes = [models.Index(fields=["roster", "played_at", "round_number", "table_number"])]

    def __str__(self) -> str:
        return f"rated game {self.game_id}"


class RatingStep(models.Model):
    """What one rated game did to one player's rating (the history chart's points)."""

    rated_game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="steps")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_steps")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = [
            "rated_game__played_at",
            "rated_game__round_number",
            "rated_game__table_number",
            "rated_game__game_id",
            "pk",
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.mu:.2f}"


class RosterLog(ChangeLine):
    """The director's changes to the roster and seasons, append-only."""

    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="log")

    class Meta(ChangeLine.Meta):
        pass

    def __str__(self) -> str:
        return f"{self.roster}: {self.action}"
