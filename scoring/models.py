"""Games at one table. Rounds hold the input exactly as entered; totals come from the engine."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from scoring.engines.registry import ENGINES


def validate_game(value: str) -> None:
    """A game key the registry knows. The list is read here, never written into a migration,
    so a new game needs no migration."""
    if value not in ENGINES:
        raise ValidationError(
            "%(value)s is not a game Tablescore knows (one of: %(known)s)",
            code="unknown_game",
            params={"value": value, "known": ", ".join(ENGINES)},
        )


def game_title(key: str) -> str:
    """A game's name as people read it; the key itself for a game no longer registered."""
    engine = ENGINES.get(key)
    return engine.title if engine is not None else key


def new_table_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def new_view_token() -> str:
    """The read-only link's key: as long as the entry link's, and never the same."""
    return secrets.token_urlsafe(32)


class Confirmation(models.TextChoices):
    # Marked to translate where they are shown (a page says them with gettext).
    OFF = "off", gettext_noop("Off: a round counts as soon as it is entered")
    ANY_OTHER_SEAT = "any_other_seat", gettext_noop("Another player confirms")
    OTHER_SIDE = "other_side", gettext_noop("A player of another side confirms")


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"

    kind = models.CharField(max_length=32, validators=[validate_game])
    options = models.JSONField(default=dict, blank=True)
    first_dealer = models.PositiveSmallIntegerField(default=0)
    # Record-level endings as the record spells them: {"ended_early": true}, {"end": {...}}.
    ending = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    confirmation = models.CharField(
        max_length=16, choices=Confirmation.choices, default=Confirmation.OFF
    )
    is_tournament_game = models.BooleanField(default=False)
    # The entry link's key (/t/<table_token>/): whoever holds it plays at the table.
    table_token = models.CharField(
        max_length=64, unique=True, default=new_table_token, editable=False
    )
    # The view link's key (/v/<view_token>/): the same scoreboard, read-only; what every
    # public page links.
    view_token = models.CharField(
        max_length=64, unique=True, default=new_view_token, editable=False
    )
    # At an event table, "one phone, handed over": the other side confirms on the phone
    # that entered the deal (the audit says so). Otherwise another phone confirms.
    one_phone = models.BooleanField(default=False)
    # An event table the desk closed (its bracket match decided by the director): only the
    # desk changes it, as after the game's end.
    closed_by_desk = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The game this one is a rematch of: one rematch per game, however many phones ask for it.
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # A projection of the engine's output, kept in every writing transaction and rebuildable
    # from the rounds: the score without its rounds (each round keeps its own, Round.result)
    # and the engine's state after the last round, from which the next round is scored.
    revision = models.PositiveIntegerField(default=0)
    # The number of the game's last round, 0 before the first (rounds are numbered 1, 2,
    # ... with no gap: a round is added after the last and only the last is undone). Read
    # with the game locked, it says which round comes next without reading the rounds.
    last_round_number = models.PositiveIntegerField(default=0, editable=False)
    score_cache = models.JSONField(default=dict, blank=True, editable=False)
    engine_state = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        names = ", ".join(seat.name for seat in self.seats.all())
        return f"{self.get_kind_display()} #{self.pk}: {names}"

    def get_absolute_url(self) -> str:
        """The table's page: its link holds the table token, the game's only credential."""
        return reverse("scoring:table", args=[self.table_token])

    def get_kind_display(self) -> str:
        return game_title(self.kind)

    @property
    def engine(self):
        return ENGINES[self.kind]


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    team = models.CharField(max_length=4, blank=True)
    # The phone (device id) the seat's player opened the table from by their own link:
    # at an event table, no other phone enters or confirms for this seat.
    held_by_device = models.CharField(max_length=64, blank=True, default="", db_default="")

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_player_per_seat"),
        ]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for confirmation"
        CONFIRMED = "confirmed", "Confirmed"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    entry = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices)
    entered_by_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    entered_by_device = models.CharField(max_length=64, blank=True)
    entered_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    corrected = models.BooleanField(default=False)
    # This round as the engine scored it (part of the game's score projection; None: unknown).
    result = models.JSONField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_round_per_number"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="round_numbers_start_at_1"
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of game {self.game_id}"


class RoundEvent(models.Model):
    """The append-only audit trail of a game: who did what, with the input before and after."""

    class Action(models.TextChoices):
        CREATE = "create", _("Game created")
        IMPORT = "import", _("Game imported")
        RECORD = "record", _("Round recorded")
        CONFIRM = "confirm", _("Round confirmed")
        CORRECT = "correct", _("Round corrected")
        UNDO = "undo", _("Last round undone")
        REMOVE = "remove", _("Deal removed")
        END = "end", _("Game ended")
        REOPEN = "reopen", _("Game reopened")
        REQUEST = "request", _("Change asked for")
        ACCEPT = "accept", _("Change accepted")
        DECLINE = "decline", _("Change declined")
        REMATCH = "rematch", _("Rematch started")
        HOLD = "hold", _("Seat held by the player's own link")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    round_number = models.PositiveIntegerField(null=True, blank=True)
    action = models.CharField(max_length=16, choices=Action.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    device = models.CharField(max_length=64, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The player who made the change, proven by their own link (not a seat said on a
    # phone): their name as it was then; empty when the seat was only said.
    person = models.CharField(max_length=40, blank=True, default="", db_default="")
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # Why the change was made: an event director says why for every change of a result.
    reason = models.CharField(max_length=500, blank=True, default="")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "at", "pk"]

    def __str__(self) -> str:
        where = f" round {self.round_number}" if self.round_number else ""
        return f"{self.get_action_display()}{where} (game {self.game_id})"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("the audit trail is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("the audit trail is append-only")


class ChangeRequest(models.Model):
    """A change one side asks for and another side accepts or declines.

    With confirmation on, undoing a confirmed round, ending a game early and
    reopening it wait here for a player who may confirm; at most one is open per game.
    At a closed event table (its game over) every change asked for goes to the event's
    desk instead (``to_desk``), where a director of the event answers it with a reason.
    """

    class Kind(models.TextChoices):
        UNDO = "undo", _("Undo the last round")
        END = "end", _("End the game")
        REOPEN = "reopen", _("Reopen the game")
        CORRECT = "correct", _("Correct a round")

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for the other side"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"
        LAPSED = "lapsed", "No longer possible"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="change_requests")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    round_number = models.PositiveIntegerField(null=True, blank=True)  # the round to undo
    ending = models.JSONField(default=dict, blank=True)  # how the game ends, for an ending
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    asked_by_seat = models.PositiveSmallIntegerField()
    asked_by_device = models.CharField(max_length=64, blank=True)
    asked_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_by_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    # Asked of the event's desk (a closed table), not of the other side.
    to_desk = models.BooleanField(default=False)
    # A correction asked for: the round as the table wants it.
    entry = models.JSONField(null=True, blank=True)
    # The game's revision the request was made against (the desk's answer is checked too).
    revision = models.PositiveIntegerField(null=True, blank=True)
    answered_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The director's reason, with the answer.
    reason = models.CharField(max_length=500, blank=True)
    # Why the table asks (optional), as the player put it.
    why = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        ordering = ["game", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(status="open"),
                name="one_open_change_request_per_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.status}, game {self.game_id})"


class IdempotentRequest(models.Model):
    """The first answer to a change sent with an idempotency key, replayed on a retry."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="idempotent_requests")
    key = models.CharField(max_length=128)
    fingerprint = models.CharField(max_length=64)  # of the request, to refuse a reused key
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)  # pruned after a day

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="one_answer_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.key} (game {self.game_id})"
