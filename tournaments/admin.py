"""The admin: a read-mostly window on events; directors change events through the services."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import Bye, Entrant, Event, EventLog, KeepApart, Table, TournamentRound


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    fields = ("name", "members", "checked_in", "dropped", "joined_round", "fixed_table")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "format", "status", "rounds_planned", "owner", "created_at")
    list_filter = ("game", "format", "status")
    search_fields = ("name", "owner__username")
    readonly_fields = ("public_token", "revision", "generation", "created_at", "updated_at")
    inlines = [EntrantInline]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ("number", "game")
    readonly_fields = ("number", "game")
    can_delete = False


@admin.register(TournamentRound)
class TournamentRoundAdmin(admin.ModelAdmin):
    list_display = ("event", "number", "status", "published_at")
    list_filter = ("status",)
    readonly_fields = ("report",)
    inlines = [TableInline]


@admin.register(EventLog)
class EventLogAdmin(admin.ModelAdmin):
    list_display = ("event", "action", "user", "at")
    list_filter = ("action",)
    readonly_fields = ("event", "action", "user", "before", "after", "at")

    def has_change_permission(self, request: HttpRequest, obj: EventLog | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: EventLog | None = None) -> bool:
        return False


admin.site.register(KeepApart)
admin.site.register(Bye)
