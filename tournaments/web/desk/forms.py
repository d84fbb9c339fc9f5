"""Posted desk forms to service arguments, and service problems back beside their fields.

``EventForm`` is the new-event page: game, options from the engine's option
descriptions (every option of the game, whatever the table size), format, tournament
rounds, the table sizes allowed (a checkbox per size the game allows; a posted
``table_size`` is still read as one size only), the ordered standings metrics (the
game's defaults filled in), how byes score and confirmation. ``clean()`` gives the
keyword arguments of ``services.event_create`` or None with the errors beside their
fields; the service's own problems are placed by ``add_problems``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, pgettext

from scoring.engines.base import Engine, Problem
from scoring.engines.registry import ENGINES
from scoring.entry.fields import Choice, parse_int
from scoring.entry.forms import OptionField, read_option_fields
from scoring.wording import problem_text
from tournaments.events.document import EVENT_NAME_LONGEST, MOST_ROUNDS
from tournaments.events.selectors import BYE_SCORING, CONFIRMATIONS, EVENT_FORMATS
from tournaments.standings.core import METRIC_LABELS, Metric, default_rules
from tournaments.web.desk.schedule_form import read_schedule

BYE_LARGEST = 100_000  # a fixed bye value, in the first metric's units
METRIC_SLOTS = 5  # the director orders up to five metrics; the first decides, the rest break ties


def as_text(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name, "")
    return value if isinstance(value, str) else ""


def as_texts(data: Mapping[str, Any], name: str) -> list[str]:
    """Every value posted under ``name`` (ticked checkboxes), from a QueryDict or a dict."""
    getlist = getattr(data, "getlist", None)
    values = getlist(name) if getlist is not None else data.get(name, [])
    values = [values] if isinstance(values, str) else values
    return [value for value in values if isinstance(value, str)]


@dataclass(frozen=True)
class SizeChoice:
    size: int
    checked: bool


def size_choices(counts: Iterable[int], allowed: Iterable[int]) -> list[SizeChoice]:
    """A checkbox per size the game allows, ticked when the event allows it (every one
    when ``allowed`` is empty: the game's own sizes)."""
    chosen = set(allowed)
    return [SizeChoice(n, not chosen or n in chosen) for n in counts]


def read_table_sizes(data: Mapping[str, Any], counts: Iterable[int]) -> tuple[list[int], str]:
    """The ticked sizes (empty when every size is ticked: the game's own sizes) and what
    is wrong with them ("" when nothing)."""
    legal = sorted(counts)
    texts = as_texts(data, "table_sizes")
    sizes = sorted({size for text in texts if (size := parse_int(text)) is not None})
    if len(sizes) != len(set(texts)) or any(size not in legal for size in sizes):
        listed = ", ".join(str(n) for n in legal)
        return [], gettext("choose table sizes among {sizes}").format(sizes=listed)
    if not sizes:
        return [], gettext("tick at least one table size")
    return ([] if sizes == legal else sizes), ""


@dataclass
class EventForm:
    data: Mapping[str, Any] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        game = as_text(self.data, "game")
        self.game = game if game in ENGINES else ""
        self.engine: Engine | None = ENGINES.get(self.game)
        self.option_fields = self.read_options() if self.engine else []

    @property
    def bound(self) -> bool:
        return bool(self.data)

    # -- what the page shows --------------------------------------------------

    @property
    def games(self) -> list[Choice]:
        return [Choice(key, engine.title, key == self.game) for key, engine in ENGINES.items()]

    @property
    def name(self) -> str:
        return as_text(self.data, "name")[:EVENT_NAME_LONGEST]

    @property
    def name_longest(self) -> int:
        return EVENT_NAME_LONGEST

    @property
    def most_rounds(self) -> int:
        return MOST_ROUNDS

    @property
    def formats(self) -> list[Choice]:
        chosen = as_text(self.data, "format") or EVENT_FORMATS.default
        return [Choice(v, gettext(label), v == chosen) for v, label in EVENT_FORMATS.values]

    @property
    def rounds_text(self) -> str:
        return as_text(self.data, "rounds_planned") or "3"

    @property
    def table_size_choices(self) -> list[SizeChoice]:
        """A checkbox per size the game allows; all ticked until the director posts."""
        if self.engine is None:
            return []
        posted = "table-sizes-present" in self.data and as_text(self.data, "refresh") != "game"
        allowed = sorted({n for t in as_texts(self.data, "table_sizes") if (n := parse_int(t))})
        if posted and not allowed:
            return [SizeChoice(n, False) for n in self.engine.player_counts]
        return size_choices(self.engine.player_counts, allowed if posted else [])

    @property
    def preferred_size(self) -> int | None:
        return self.engine.preferred_table_size if self.engine is not None else None

    @property
    def metric_slots(self) -> list[dict[str, Any]]:
        """Up to five ordered selects, the game's default order filled in when not posted."""
        if self.engine is None:
            return []
        posted = "metric-1" in self.data and as_text(self.data, "refresh") != "game"
        defaults = [m.value for m in default_rules(self.game).metrics]
        slots = []
        for index in range(1, METRIC_SLOTS + 1):
            if posted:
                chosen = as_text(self.data, f"metric-{index}")
            else:
                chosen = defaults[index - 1] if index <= len(defaults) else ""
            options = [Choice("", pgettext("no metric chosen", "(none)"), not chosen)] + [
                Choice(m.value, gettext(METRIC_LABELS[m]), m.value == chosen) for m in Metric
            ]
            slots.append({"index": index, "name": f"metric-{index}", "choices": options})
        return slots

    @property
    def default_metrics(self) -> str:
        if self.engine is None:
            return ""
        return ", ".join(gettext(METRIC_LABELS[m]) for m in default_rules(self.game).metrics)

    @property
    def bye_choices(self) -> list[Choice]:
        chosen = as_text(self.data, "bye_scoring") or BYE_SCORING.default
        return [Choice(v, gettext(label), v == chosen) for v, label in BYE_SCORING.values]

    @property
    def bye_value_text(self) -> str:
        return as_text(self.data, "bye_value") or "0"

    @property
    def schedule(self) -> dict[str, str]:
        """The date, start time and venue as posted (empty: not given)."""
        return {name: as_text(self.data, name) for name in ("date", "start_time", "venue")}

    @property
    def confirmation_choices(self) -> list[Choice]:
        """The ways of confirming a deal, said in the reader's language (their words are
        scoring's, marked where they are defined)."""
        chosen = as_text(self.data, "confirmation") or CONFIRMATIONS.default
        return [Choice(v, gettext(label), v == chosen) for v, label in CONFIRMATIONS.values]

    def error(self, name: str) -> str:
        return " ".join(self.errors.get(name, []))

    @property
    def field_errors(self) -> dict[str, str]:
        return {name: " ".join(messages) for name, messages in self.errors.items()}

    # -- reading --------------------------------------------------------------

    def read_options(self) -> list[OptionField]:
        assert self.engine is not None
        posted = "option-present" in self.data and as_text(self.data, "refresh") != "game"
        return read_option_fields(self.engine.option_specs(), self.data, posted=posted)

    def fail(self, name: str, message: str) -> None:
        text = message[:1].upper() + message[1:]
        if not text.endswith("."):
            text += "."
        messages = self.errors.setdefault(name, [])
        if text not in messages:
            messages.append(text)

    def clean(self) -> dict[str, Any] | None:
        """The arguments of ``event_create``, or None with the errors filled in."""
        if self.engine is None:
            self.fail("game", gettext("choose the game"))
            return None
        name = self.name.strip()
        if not name:
            self.fail("name", gettext("give the event a name"))
        rounds = parse_int(self.rounds_text)
        if rounds is None or not 1 <= rounds <= MOST_ROUNDS:
            self.fail(
                "rounds_planned",
                gettext("enter a number of rounds from 1 to {most}").format(most=MOST_ROUNDS),
            )
        size_text = as_text(self.data, "table_size")
        size = parse_int(size_text) if size_text else None
        if size_text and size is None:
            self.fail("table_size", gettext("choose a table size"))
        table_sizes: list[int] = []
        if "table-sizes-present" in self.data:
            table_sizes, problem = read_table_sizes(self.data, self.engine.player_counts)
            if problem:
                self.fail("table_sizes", problem)
        metrics = [
            text for i in range(1, METRIC_SLOTS + 1) if (text := as_text(self.data, f"metric-{i}"))
        ]
        if "metric-1" in self.data and not metrics:
            self.fail("standings_metrics", gettext("choose at least one metric"))
        if len(set(metrics)) != len(metrics):
            self.fail("standings_metrics", gettext("each metric is chosen once"))
        bye_value = parse_int(self.bye_value_text)
        if bye_value is None or abs(bye_value) > BYE_LARGEST:
            self.fail(
                "bye_value",
                gettext("enter a whole number from {least} to {most}").format(
                    least=-BYE_LARGEST, most=BYE_LARGEST
                ),
            )
        for option in self.option_fields:
            if option.error:
                self.errors.setdefault(option.name, [])
        schedule, schedule_errors = read_schedule(self.data)
        for name, message in schedule_errors.items():
            self.fail(name, message)
        if self.errors or any(o.error for o in self.option_fields):
            return None
        return {
            **schedule,
            "name": name,
            "game": self.game,
            "options": {o.spec.name: o.value for o in self.option_fields},
            "format": as_text(self.data, "format") or EVENT_FORMATS.default,
            "rounds_planned": rounds,
            "table_size": size,
            "table_sizes": table_sizes,
            "standings_metrics": metrics,
            "bye_scoring": as_text(self.data, "bye_scoring") or BYE_SCORING.default,
            "bye_value": bye_value,
            "confirmation": as_text(self.data, "confirmation") or CONFIRMATIONS.default,
            "one_phone": as_text(self.data, "one_phone") == "on",
        }

    def add_problems(self, problems: Iterable[Problem]) -> None:
        by_option = {o.spec.name: o for o in self.option_fields}
        for problem in problems:
            where = problem.field or ""
            if where.startswith("options."):
                option = by_option.get(where.split(".", 1)[1])
                if option is not None:
                    said = problem_text(problem)
                    option.error = said[:1].upper() + said[1:]
                    continue
            if where == "metrics":
                where = "standings_metrics"
            if where in {
                "name",
                "game",
                "format",
                "rounds_planned",
                "table_size",
                "table_sizes",
                "standings_metrics",
                "bye_scoring",
                "confirmation",
                "options",
                "date",
                "start_time",
                "venue",
            }:
                self.fail(where, problem_text(problem))
            else:
                self.general.append(problem_text(problem))

    @property
    def has_errors(self) -> bool:
        return bool(self.errors or self.general or any(o.error for o in self.option_fields))


def problems_by_field(problems: Iterable[Problem]) -> dict[str, str]:
    """A service's problems as one sentence per field, for the desk's smaller forms."""
    found: dict[str, list[str]] = {}
    for problem in problems:
        message = problem_text(problem)
        text = message[:1].upper() + message[1:]
        found.setdefault(problem.field or "form", []).append(text.rstrip(".") + ".")
    return {name: " ".join(messages) for name, messages in found.items()}
