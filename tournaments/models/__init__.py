"""Events of many tables: entrants, tournament rounds, tables (each a scoring game), byes.

Standings are never stored: they are computed from the confirmed table games.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from common.folding import folded
from scoring.models import Confirmation, Game, game_title, validate_game
from tournaments.models.log import ChangeLine
from tournaments.models.signup import VENUE_LONGEST
from tournaments.models.tokens import new_private_token, new_public_token


class Event(models.Model):
    class Format(models.TextChoices):
        MIXER = "mixer", gettext_noop("Mixer: meet as many players as possible")
        SWISS = "swiss", gettext_noop("Swiss: tables by standings")
        ROUND_ROBIN = "round_robin", gettext_noop("Round robin: every team meets every other")
        PROGRESSIVE = "progressive", gettext_noop("Progressive: winners move up a table")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        CLOSED = "closed", _("Closed")

    class ByeScoring(models.TextChoices):
        AVERAGE = "average", gettext_noop("The player's average of their other rounds")
        FIXED = "fixed", gettext_noop("A fixed value")
        TABLE_AVERAGE = "table_average", gettext_noop("The average of that round's tables")

    class AwayScoring(models.TextChoices):
        NONE = "none", gettext_noop("Nothing for that round")
        BYE = "bye", gettext_noop("The event's bye score")

    class SelfCheckIn(models.TextChoices):
        CLOSED = "closed", gettext_noop("Closed: only the desk checks players in")
        OPEN = "open", gettext_noop("Open: players check in from their own links")
        WINDOW = "window", gettext_noop("Open between two times")

    class SelfDrop(models.TextChoices):
        ASK = "ask", gettext_noop("Asked of the desk, which agrees")
        NOW = "now", gettext_noop("At once")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="events"
    )
    name = models.CharField(max_length=80)
    game = models.CharField(max_length=32, validators=[validate_game])
    options = models.JSONField(default=dict, blank=True)
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.MIXER)
    rounds_planned = models.PositiveSmallIntegerField(default=3)
    # None: the game's preferred table size; other legal sizes fill in before any bye.
    table_size = models.PositiveSmallIntegerField(null=True, blank=True)
    # The table sizes the event allows (e.g. [4, 5]: "4 or 5 only"), increasing; empty:
    # every size the game allows. The seating keeps to them with the fewest byes.
    table_sizes = models.JSONField(default=list, blank=True)
    # Metric keys in order, as the standings core names them; empty: the game's default.
    standings_metrics = models.JSONField(default=list, blank=True)
    bye_scoring = models.CharField(
        max_length=16, choices=ByeScoring.choices, default=ByeScoring.AVERAGE
    )
    bye_value = models.IntegerField(default=0)
    # A player away for a round (not checked in while check-in is in use) scores nothing
    # for it, or scores as a bye does.
    away_scoring = models.CharField(
        max_length=8, choices=AwayScoring.choices, default=AwayScoring.NONE
    )
    confirmation = models.CharField(
        max_length=16, choices=Confirmation.choices, default=Confirmation.OTHER_SIDE
    )
    # "One phone, handed over": a table's deal is confirmed on the phone that entered it,
    # handed to the other side. Off: another phone, holding a seat of that side, confirms.
    one_phone = models.BooleanField(
        default=False, verbose_name="One phone per table, handed over to confirm"
    )
    seed = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION)
    # Players check themselves in from their own links: never (the desk alone), now (the
    # director opened it by hand), or between two times (a window the director set).
    self_check_in = models.CharField(
        max_length=8, choices=SelfCheckIn.choices, default=SelfCheckIn.CLOSED
    )
    check_in_opens_at = models.DateTimeField(null=True, blank=True)
    check_in_closes_at = models.DateTimeField(null=True, blank=True)
    # A player dropping out from their own link: asked of the desk, or at once.
    self_drop = models.CharField(max_length=8, choices=SelfDrop.choices, default=SelfDrop.ASK)
    public_token = models.CharField(
        max_length=24, unique=True, default=new_public_token, editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When and where (shown on the event's pages and printouts); all optional.
    date = models.DateField(null=True, blank=True)
    start_time = models.TimeField(null=True, blank=True)
    venue = models.CharField(max_length=VENUE_LONGEST, blank=True)
    # Bumped by every change players can see, so their pages refresh only when needed.
    revision = models.PositiveIntegerField(default=0)
    # The next round's generation when it runs as a background task, for the desk to show:
    # {"state": "queued" | "running" | "done" | "failed", "round": n, "done": i, "total": k,
    #  "message": "..."}; empty when no generation was ever queued.
    generation = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def get_game_display(self) -> str:
        return game_title(self.game)


class FoldedText(models.TextField):
    """The fold of another field of the row (``of``: a name, or a list of names a line
    each), case and accents ignored as ``common.folding`` says: what searches and orders by
    name in the database. Every save and bulk create writes it, so it never goes stale."""

    def __init__(self, *args: Any, of: str, **kwargs: Any) -> None:
        self.of = of
        kwargs.setdefault("editable", False)
        kwargs.setdefault("default", "")
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        return name, path, args, {**kwargs, "of": self.of}

    def pre_save(self, model_instance: models.Model, add: bool) -> str:
        source = getattr(model_instance, self.of)
        names = [source] if isinstance(source, str) else list(source or ())
        value = "\n".join(folded(str(name)) for name in names)
        setattr(model_instance, self.attname, value)
        return value


class Entrant(models.Model):
    """A player, or a fixed team (its members named in ``members``) in partnership play."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    name = models.CharField(max_length=40)
    members = models.JSONField(default=list, blank=True)
    # "Where do I sit" and the desk's search match these, and the desk lists by name_folded.
    name_folded = FoldedText(of="name")
    members_folded = FoldedText(of="members")
    checked_in = models.BooleanField(default=False)
    # A drop takes effect from the next round generated; a late entry joins from it.
    dropped = models.BooleanField(default=False)
    joined_round = models.PositiveSmallIntegerField(default=1)
    # The player asked (from their own link) to drop out; the desk agrees or declines.
    drop_asked_at = models.DateTimeField(null=True, blank=True)
    # Access: this entrant always sits at this table number (1-based).
    fixed_table = models.PositiveSmallIntegerField(null=True, blank=True)
    # The entrant's own link (/me/<token>/): whoever opens it acts as this entrant. The
    # desk reissues it (a new token) to revoke the old one.
    private_token = models.CharField(
        max_length=32, unique=True, default=new_private_token, editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="entrant_name_unique_in_event")
        ]

    def __str__(self) -> str:
        return self.name


class KeepApart(models.Model):
    """Two entrants who should not share a table (a family, a couple)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="keep_apart")
    first = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")

    def __str__(self) -> str:
        return f"{self.first} apart from {self.second}"


class TournamentRound(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    # The seating engine's quality report for this round (repeats, bound, byes, seconds).
    report = models.JSONField(default=dict, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    # The round clock (tournaments.events.services.clock): running while ``clock_ends_at`` is set,
    # paused while ``clock_paused_left`` (seconds) is; never started while both are empty.
    clock_ends_at = models.DateTimeField(null=True, blank=True)
    clock_paused_left = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"], name="one_tournament_round_per_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"


class Table(models.Model):
    """One table of one tournament round; once published, one scoring game."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="event_table"
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.round}, table {self.number}"


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()  # 0-based, as the game's seats
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="table_seats")
    # A fixed team fills one seat per member: which member sits here (0 for a player).
    member = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="one_entrant_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.table}, seat {self.seat + 1}: {self.entrant}"


class Bye(models.Model):
    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="byes")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="byes")

    def __str__(self) -> str:
        return f"{self.round}: bye for {self.entrant}"


class Absence(models.Model):
    """A player of the event not seated in a round: away, or still playing the round before.

    Written with the round's draft from the availability at that moment; it scores as the
    event's ``away_scoring`` says.
    """

    class Reason(models.TextChoices):
        AWAY = "away", gettext_noop("Away")
        PLAYING = "playing", gettext_noop("Still playing the round before")

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="absences")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="absences")
    reason = models.CharField(max_length=8, choices=Reason.choices, default=Reason.AWAY)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="one_absence_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.entrant} {self.get_reason_display().lower()}"


class EventStaff(models.Model):
    """Another staff user helping the owner run the event.

    A co-director does everything but delete the event; a scorer enters results and
    corrections only. What each may do is read from ``tournaments.events.directors``.
    """

    class Role(models.TextChoices):
        CO_DIRECTOR = "co_director", gettext_noop("Co-director")
        SCORER = "scorer", gettext_noop("Scorer")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="one_role_per_user_in_event")
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.user} ({self.get_role_display()})"


class EventLog(ChangeLine):
    """The director's changes, append-only: who did what, with the state before and after."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="log")

    class Meta(ChangeLine.Meta):
        pass

    def __str__(self) -> str:
        return f"{self.event}: {self.action}"


# =========================================================================== bracket stage
# An event's elimination stage, after its qualifying rounds or on its own. The bracket is
# stored as the pure core's inputs (tournaments.brackets.core): the field in seed
# order, the options, the results reported and the director's overrides; who sits where,
# what is ready and who placed where are derived from these every time.


class BracketStage(models.Model):
    class Kind(models.TextChoices):
        SINGLE = "single", gettext_noop("Single elimination: two sides a table, one loss and out")
        DOUBLE = (
            "double",
            gettext_noop("Double elimination: two sides a table, out after two losses"),
        )
        TABLES = "tables", gettext_noop("Table elimination: the top of each table go on")

    class Seeding(models.TextChoices):
        STANDINGS = "standings", gettext_noop("From the standings")
        RATING = "rating", gettext_noop("By rating")
        RANDOM = "random", gettext_noop("At random")
        MANUAL = "manual", gettext_noop("By hand")

    class DrawRule(models.TextChoices):
        HIGHER_SEED = "higher_seed", gettext_noop("The higher seed goes on")
        RANDOM = "random", gettext_noop("A drawn lot")
        REPLAY = "replay", gettext_noop("The table plays again")

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="bracket_stage")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    seeding = models.CharField(max_length=16, choices=Seeding.choices)
    draw_rule = models.CharField(
        max_length=16, choices=DrawRule.choices, default=DrawRule.HIGHER_SEED
    )
    # Entrant ids as text, best seed first: the core's field.
    seeds = models.JSONField(default=list)
    # third_place, grand_final (two-team); table_size, advance, final_table_size,
    # placement_tables, legal_sizes (tables).
    options = models.JSONField(default=dict, blank=True)
    seed = models.PositiveIntegerField(default=0)  # drawn lots and random seeding
    # Pairs of entrant ids (as text) who shared a table before: kept apart where possible.
    history = models.JSONField(default=list, blank=True)
    # A two-stage event's cut: {"size": n, "out": [ids]}; empty when the bracket is the event.
    cut = models.JSONField(default=dict, blank=True)
    # [{"match": id, "finish": [[ids], ...]}]: each match's finish as reported by its game.
    results = models.JSONField(default=list, blank=True)
    # [{"match": id, "finish": [[id], ...], "reason": text}]: the director's decisions.
    overrides = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.event}: {self.get_kind_display()}"


class BracketGame(models.Model):
    """The scoring game one match (or table) of the bracket is played as.

    A match that ended level under the replay rule is played again: a new row with the
    next ``attempt``; the latest attempt is the one that counts.
    """

    stage = models.ForeignKey(BracketStage, on_delete=models.CASCADE, related_name="games")
    match = models.CharField(max_length=40)
    attempt = models.PositiveSmallIntegerField(default=1)
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="bracket_game")
    # The entrant id at each seat of the game, in seat order (a team fills several seats).
    seats = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "match", "attempt"], name="one_bracket_game_per_attempt"
            )
        ]

    def __str__(self) -> str:
        return f"{self.stage.event}, {self.match}"


# --------------------------------------------------------------------------- the club
#
# A director keeps one roster of players known across events. An event joins the roster
# as a club night (``ClubNight``): it may belong to a season and may be rated. Entrants
# link to roster players (one link per member of a fixed team). Ratings are a projection
# of the rated games (``RatedGame``: each game's sides and places as they were rated),
# rebuilt by ``manage.py ratings --recompute``.


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
    # The player's own link across the nights of the roster: it leads to their entry in
    # the night being played. Reissued (a new token) to revoke the old one.
    private_token = models.CharField(
        max_length=32, unique=True, default=new_private_token, editable=False
    )
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


# --------------------------------------------------------------------------- sign-up
# An event's own sign-up page, its registrations and the desk's announcements live in
# ``tournaments.models.signup``; imported here so that Django finds them.

from tournaments.models.signup import Announcement as Announcement  # noqa: E402
from tournaments.models.signup import Registration as Registration  # noqa: E402
from tournaments.models.signup import SignUp as SignUp  # noqa: E402
