"""Games and rounds to look at, the audit trail read-only (a director reads a game's trail
on its history page and an event's on its desk).

No entry token is shown here: whoever holds one plays at that table, and an admin account
given view rights is not a player. The table's phone and the event's desk show the link.
"""

from django.contrib import admin

from scoring.models import Game, Round, RoundEvent, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "name", "team")
    readonly_fields = ("number", "team")


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "entry", "status", "entered_by_seat", "confirmed_by_seat", "corrected")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


def masked(token: str) -> str:
    """A token as the admin shows it: not at all, but where it can be read."""
    if not token:
        return "-"
    return "hidden (the table's own page and the event's desk show the entry link)"


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("pk", "kind", "players", "status", "confirmation", "updated_at")
    list_filter = ("kind", "status", "confirmation", "is_tournament_game")
    search_fields = ("seats__name",)
    readonly_fields = (
        "kind",
        "options",
        "first_dealer",
        "ending",
        "entry_link",
        "created_by",
        "created_at",
        "updated_at",
        "revision",
        "score_cache",
    )
    fields = ("status", "confirmation", "is_tournament_game", *readonly_fields)
    inlines = [SeatInline, RoundInline]

    @admin.display(description="entry link")
    def entry_link(self, game):
        return masked(game.table_token)

    @admin.display(description="players")
    def players(self, game):
        return ", ".join(seat.name for seat in game.seats.all())

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats")

    def has_add_permission(self, request):
        return False  # games start at the table or through the API, where the engine checks them


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "status", "entered_by_seat", "confirmed_by_seat", "corrected")
    list_filter = ("status", "corrected", "game__kind")


@admin.register(RoundEvent)
class RoundEventAdmin(ReadOnlyAdmin):
    list_display = ("at", "game", "action", "round_number", "seat", "device", "user")
    list_filter = ("action", "game__kind")
    search_fields = ("game__pk",)
