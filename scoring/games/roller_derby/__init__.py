"""Roller Derby at the table: dice, tricks tapped from chips, all or nothing once per team.

All or nothing scores 150 or 0 whatever the dice show, so a deal played all or nothing
asks no dice: they are hidden once it is called (see the engine's description, which
departs from rules.md there on purpose). A roll tapped before it was called is kept as
entered when it is whole (a correction of a deal recorded with its dice keeps them), and
left out when it is not (one die of two says nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext

from scoring.engines import roller_derby
from scoring.engines.base import FieldSpec, RoundResult, ScoredGame
from scoring.entry.fields import TRUE_WORDS, BoundField, Choice, FieldKind, NumberChips
from scoring.entry.forms import EntryForm
from scoring.games.kit import Kit
from scoring.games.roller_derby.printed import PRINTED
from scoring.games.roller_derby.rules import RULES


class RollerDerbyForm(EntryForm):
    penalty_points = roller_derby.PENALTY_SIZE

    def kinds(self) -> dict[str, FieldKind]:
        return {"tricks": NumberChips(), "jokers": NumberChips()}

    def adjust(self) -> None:
        fields = self.f
        jokers = fields.get("jokers")
        if jokers is not None and not jokers.value:
            jokers.value = "0"
            for choice in jokers.choices:
                choice.selected = choice.value == "0"
        team = self.context.get("roller_team")
        used = self.context.get("all_or_nothing_used", {})
        aon = fields["all_or_nothing"]
        if team and used.get(team):
            aon.disabled = True
            aon.note = gettext("Team %(team)s has already played all or nothing in this game.") % {
                "team": team
            }
        made = fields["made"]
        made.choices = [
            Choice(
                "yes",
                gettext("Made: %(points)s") % {"points": roller_derby.ALL_OR_NOTHING_SCORE},
                made.value == "yes",
            ),
            Choice("no", gettext("Failed: 0"), made.value == "no"),
        ]

    @property
    def all_or_nothing(self) -> bool:
        return self.data.get("all_or_nothing", "").strip().lower() in TRUE_WORDS

    def read_field(self, spec: FieldSpec, bound: BoundField) -> tuple[bool, Any]:
        if spec.name == "dice" and self.all_or_nothing:
            # not asked: all or nothing scores whatever they show; a whole roll is kept
            whole = all(self.data.get(item.name, "").strip() for item in bound.items)
            if not whole:
                return False, None
        return super().read_field(spec, bound)

    def finish(self, entry: dict[str, Any]) -> dict[str, Any]:
        if entry.get("all_or_nothing") is True:
            entry.pop("tricks", None)
            entry.pop("jokers", None)
            if "made" not in entry:
                self.fail("made", gettext("Say whether the all-or-nothing deal was made."))
        else:
            entry.pop("all_or_nothing", None)
            entry.pop("made", None)
            tricks = self.find("tricks")
            if "tricks" not in entry and tricks is not None and not tricks.errors:
                self.fail("tricks", gettext("Tap the tricks won by the Roller's team."))
        if entry.get("jokers") == 0:
            entry.pop("jokers")
        return entry


class RollerDerbyKit(Kit):
    key = roller_derby.RollerDerby.key
    printed = PRINTED
    rules = RULES
    entry_form = RollerDerbyForm
    ending = "early"

    def roller_line(self, upcoming: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
        roller = upcoming.get("roller")
        if not isinstance(roller, int) or roller not in names:
            return []
        return [
            gettext("%(name)s rolls for team %(team)s")
            % {"name": names[roller], "team": upcoming.get("roller_team")}
        ]

    def facts(self, scored: ScoredGame, names: Mapping[int, str]) -> list[str]:
        upcoming = scored.upcoming
        facts = self.roller_line(upcoming, names)
        left = upcoming.get("deals_left")
        if left is not None:
            facts.append(
                ngettext("%(count)s deal left", "%(count)s deals left", left) % {"count": left}
            )
        used = upcoming.get("all_or_nothing_used") or {}
        spent = [team for team, flag in used.items() if flag]
        if len(spent) == 1:
            facts.append(gettext("All or nothing used by team %(team)s") % {"team": spent[0]})
        elif spent:
            facts.append(
                gettext("All or nothing used by team %(first)s and team %(second)s")
                % {"first": spent[0], "second": spent[-1]}
            )
        return facts

    def heading(self, upcoming: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
        return self.roller_line(upcoming, names)

    def markers(self, upcoming: Mapping[str, Any]) -> dict[int, str]:
        roller = upcoming.get("roller")
        return {roller: gettext("rolls")} if isinstance(roller, int) else {}

    def round_details(self, result: RoundResult, names: Mapping[int, str]) -> list[str]:
        roller = result.details.get("roller")
        if roller is None:
            return []
        target = result.details.get("target")
        name = names.get(roller, "?")
        if target is None:  # all or nothing, played without the dice
            return [gettext("%(name)s called all or nothing") % {"name": name}]
        return [gettext("%(name)s rolled %(target)s") % {"name": name, "target": target}]


KIT = RollerDerbyKit()
