"""Posted form fields to engine inputs and back.

``EntryForm`` turns the table page's round form into the engine's round entry,
and an entry back into form values for a correction. It is built from the
engine's ``FieldSpec`` descriptions through the field kinds of
``scoring.entry.fields``; a game's kit adds only what is odd to that game.
``NewGameForm`` turns the start page (game, players in seat order, options from
the engine's option descriptions, confirmation) into a game record.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from django.utils.datastructures import MultiValueDict
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext

from scoring.engines.base import MAX_NAME_LENGTH, Engine, FieldSpec, OptionSpec, Problem
from scoring.engines.registry import ENGINES
from scoring.entry.fields import (
    KINDS,
    TRUE_WORDS,
    BoundField,
    Choice,
    FieldKind,
    SeatInfo,
    as_data,
    humanize,
    parse_int,
)
from scoring.models import Confirmation
from scoring.wording import phrase_text, problem_text, words


class EntryForm:
    """The round form of one game, generated from its engine's ``round_fields``.

    ``data`` holds posted values (a QueryDict or a dict of lists); ``context``
    is the engine's ``next`` block for the round being entered (dealer, roller,
    chips ...). ``clean()`` returns the entry for the engine, or None with
    ``errors`` filled in; ``add_problems`` places the engine's problems beside
    their fields. A game's kit subclasses it to name its own field kinds
    (``kinds``) and to add its touches (``adjust``, ``finish``).
    """

    penalty_points: ClassVar[int | None] = None

    def __init__(
        self,
        *,
        engine: Engine,
        seats: Sequence[SeatInfo],
        options: Mapping[str, Any],
        context: Mapping[str, Any] | None = None,
        data: Any = None,
    ):
        self.engine = engine
        self.seats = list(seats)
        self.options = dict(options)
        self.context = dict(context or {})
        self.data = as_data(data)
        self.bound = data is not None
        self.specs = engine.round_fields_at(len(self.seats), self.options, self.context)
        self.errors: list[str] = []  # messages no field claims
        self.overrides = self.kinds()

    # -- construction ------------------------------------------------------

    @functools.cached_property
    def fields(self) -> list[BoundField]:
        """The form's controls, built with the game's touches when first asked for: a form
        whose controls were drawn before (see ``drawn_from``) is shown without them."""
        built = [self.kind_of(spec).build(self, spec, spec.name) for spec in self.specs]
        self.__dict__["fields"] = built  # what adjust() reads
        self.adjust()
        return built

    def __getattr__(self, name: str) -> Any:
        # What a game's adjust() sets (its rows, its pads) is there once the controls are.
        if name.startswith("__") or "fields" in self.__dict__ or "specs" not in self.__dict__:
            raise AttributeError(name)
        self.fields  # noqa: B018 (built, adjust() included)
        return object.__getattribute__(self, name)

    @property
    def has_misdeal(self) -> bool:
        return any(spec.name == "misdeal" for spec in self.specs)

    def kinds(self) -> dict[str, FieldKind]:
        """Handlers for fields of this game that are more than their engine kind."""
        return {}

    def kind_of(self, spec: FieldSpec) -> FieldKind:
        return self.overrides.get(spec.name) or KINDS[spec.kind]

    @property
    def f(self) -> dict[str, BoundField]:
        return {item.name: item for item in self.fields}

    @property
    def dealer(self) -> int | None:
        dealer = self.context.get("dealer")
        return dealer if isinstance(dealer, int) else None

    def adjust(self) -> None:
        """Game-specific touches to the bound fields (disabled seats, notes)."""

    # -- reading -----------------------------------------------------------

    def fail(self, name: str, message: str) -> None:
        target = self.find(name)
        if target is None:
            self.errors.append(message)
        elif message not in target.errors:
            target.errors.append(message)

    def find(self, name: str | None) -> BoundField | None:
        """The bound field for an engine field name ("won", "widow.price", "pay_cards")."""
        if not name:
            return None

        def walk(items: Iterable[BoundField]) -> BoundField | None:
            for item in items:
                if item.name == name:
                    return item
                found = walk(item.items)
                if found is not None:
                    return found
            return None

        found = walk(self.fields)
        if found is None and "." in name:
            return self.find(name.rsplit(".", 1)[0])
        return found

    def add_problems(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            self.fail(problem.field or "", problem_text(problem, seats_from=1))

    @property
    def has_errors(self) -> bool:
        # Controls not built yet hold no messages.
        built = self.__dict__.get("fields", ())
        return bool(self.errors) or any(f.all_errors for f in built)

    @property
    def drawn_from(self) -> str:
        """What a form holding no posted values is built from, as text: its kind, seats,
        options and the table before the round. Two such forms alike in it draw the same
        controls; a form holding posted values (or messages) says "" (it is its own)."""
        if self.bound or self.has_errors:
            return ""
        kind = f"{type(self).__module__}.{type(self).__qualname__}"
        seats = [seat.__dict__ for seat in self.seats]  # every field of each
        made_of = [kind, self.engine.key, seats, self.options, self.context]
        return json.dumps(made_of, sort_keys=True, default=repr)

    @property
    def error_count(self) -> int:
        return len(self.errors) + sum(len(f.all_errors) for f in self.fields)

    @property
    def messages(self) -> list[str]:
        """Every message of the form, those no field claims first."""
        found = list(self.errors)
        for bound in self.fields:
            found += bound.all_errors
        return found

    def read_field(self, spec: FieldSpec, bound: BoundField) -> tuple[bool, Any]:
        """(present, value) for one field; a kit may read a field its own way."""
        return self.kind_of(spec).read(self, bound)

    def clean(self) -> dict[str, Any] | None:
        """The round entry for the engine, or None when the form has mistakes."""
        entry: dict[str, Any] = {}
        for spec, bound in zip(self.specs, self.fields, strict=True):
            if bound.hidden:
                continue
            present, value = self.read_field(spec, bound)
            if present:
                entry[bound.name] = value
        entry = self.finish(entry)
        return None if self.has_errors else entry

    def finish(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Game-specific last steps on a read entry (fill-ins, dropped keys)."""
        return entry

    # -- entry back to form values -----------------------------------------

    @classmethod
    def data_for(cls, entry: Mapping[str, Any], specs: Sequence[FieldSpec]) -> MultiValueDict:
        """Form values that re-create ``entry`` (for a correction)."""
        data: MultiValueDict[str, str] = MultiValueDict()
        for spec in specs:
            value = entry.get(spec.name)
            if value is not None:
                KINDS[spec.kind].put(data, spec, spec.name, value)
        return data


# --------------------------------------------------------------------------- a new game


def possible_counts(engine: Engine) -> list[int]:
    """Every player count the game takes under some option (a bool switched on)."""
    counts = set(engine.player_counts)
    for spec in engine.option_specs():
        if spec.kind == "bool":
            counts |= set(engine.allowed_player_counts({spec.name: True}))
    return sorted(counts)


def counts_label(engine: Engine) -> str:
    counts = possible_counts(engine)
    if len(counts) == 1:
        return ngettext("%(count)s player", "%(count)s players", counts[0]) % {"count": counts[0]}
    if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return gettext("%(low)s-%(high)s players") % {"low": counts[0], "high": counts[-1]}
    return gettext("%(some)s or %(last)s players") % {
        "some": ", ".join(str(c) for c in counts[:-1]),
        "last": counts[-1],
    }


@dataclass(frozen=True)
class GameChoice:
    """A game on offer, as the home page and the start page list it (from the registry)."""

    key: str
    title: str
    summary: str
    counts: str
    selected: bool = False


def game_choices(selected: str = "") -> list[GameChoice]:
    return [
        GameChoice(key, engine.title, words(engine.summary), counts_label(engine), key == selected)
        for key, engine in ENGINES.items()
    ]


@dataclass
class OptionField:
    spec: OptionSpec
    value: Any
    text: str
    error: str = ""

    @property
    def name(self) -> str:
        return f"option-{self.spec.name}"

    @property
    def default_text(self) -> str:
        return humanize(self.spec.default)

    @property
    def choices(self) -> list[Choice]:
        return [Choice(str(c), humanize(c), str(c) == str(self.value)) for c in self.spec.choices]


def read_option_fields(
    specs: Sequence[OptionSpec], data: Mapping[str, Any], *, posted: bool
) -> list[OptionField]:
    """The engine's options as form fields: what was posted (checked against the option's
    own description), else each option's default."""
    fields: list[OptionField] = []
    for spec in specs:
        name = f"option-{spec.name}"
        posted_text = data.get(name, "") if posted else ""
        text = posted_text if isinstance(posted_text, str) else ""
        value: Any = spec.default
        error = ""
        if spec.kind == "bool":
            value = (text in TRUE_WORDS) if posted else bool(spec.default)
            text = "on" if value else ""
        elif not posted or name not in data:
            text = "" if spec.default is None else str(spec.default)
        elif spec.kind == "choice":
            match = [c for c in spec.choices if str(c) == text]
            if match:
                value = match[0]
            else:
                error = gettext("Choose one of: %(choices)s.") % {
                    "choices": ", ".join(humanize(c) for c in spec.choices)
                }
        elif spec.kind in {"int", "int_or_null"}:
            number = parse_int(text)
            if not text.strip() and spec.kind == "int_or_null":
                value = None
            elif number is None:
                error = gettext("Enter a whole number.")
            else:
                value = number
                error = option_problem_text(spec, number)
        fields.append(OptionField(spec, value, text, error))
    return fields


def option_problem_text(spec: OptionSpec, value: int) -> str:
    """Why ``value`` does not suit the option, said beside its field in the reader's
    language ("It must be at least 100." in English); "" when it suits."""
    phrase = spec.problem(value)
    if phrase is None:
        return ""
    english = str(phrase)
    said = phrase_text(phrase.template, phrase.values)
    if said == english:
        return english.replace(f"option {spec.name} ", "It ")
    return capfirst(said)


@dataclass
class OptionGroup:
    name: str
    fields: list[OptionField]

    @property
    def play_only(self) -> bool:
        return all(f.spec.play_only for f in self.fields)


@dataclass
class PlayerField:
    seat: int
    name: str
    team: str
    error: str = ""

    @property
    def field_name(self) -> str:
        return f"player-{self.seat}"


class NewGameForm:
    """Game, players in seat order, options and confirmation for a new game.

    Posted again on every change (htmx) so that seats, teams and the options on
    offer follow the choices; ``clean()`` gives the game record and the
    confirmation setting, or None with the errors filled in.
    """

    def __init__(self, data: Any = None):
        self.data = as_data(data)
        self.bound = data is not None
        self.errors: list[str] = []
        game = self.data.get("game", "")
        self.game = game if game in ENGINES else ""
        self.engine: Engine | None = ENGINES.get(self.game)
        self.count_error = ""
        self.first_dealer_error = ""
        self.confirmation = self.data.get("confirmation", Confirmation.OFF)
        if self.confirmation not in Confirmation.values:
            self.confirmation = Confirmation.OFF
        self.count = 0
        self.option_fields: list[OptionField] = []
        self.players: list[PlayerField] = []
        if self.engine is not None:
            self.build()

    # -- building ----------------------------------------------------------

    @property
    def games(self) -> list[GameChoice]:
        return game_choices(self.game)

    def build(self) -> None:
        engine = self.engine
        assert engine is not None
        counts = possible_counts(engine)
        count = parse_int(self.data.get("players", "") or "")
        if count not in counts:
            count = 4 if 4 in engine.player_counts else engine.player_counts[0]
        self.count = count
        self.option_fields = self.read_options(engine, count)
        if self.data.get("refresh") == "players":
            self.fit_options_to_count(engine, count)
        teams = engine.teams(count, self.option_values()) if self.options_ok else {}
        for seat in range(count):
            team = next((label for label, seats in teams.items() if seat in seats), "")
            name = self.data.get(f"player-{seat}", "")[:MAX_NAME_LENGTH]
            self.players.append(PlayerField(seat, name, team))

    def read_options(self, engine: Engine, count: int) -> list[OptionField]:
        posted = self.bound and "option-present" in self.data and self.data.get("refresh") != "game"
        specs = [
            s for s in engine.option_specs() if not s.player_counts or count in s.player_counts
        ]
        return read_option_fields(specs, self.data, posted=posted)

    def fit_options_to_count(self, engine: Engine, count: int) -> None:
        """After a change of player count, switch a bool option that the count requires."""
        options = self.option_values()
        if count in engine.allowed_player_counts(options) and not engine.option_problems(
            options, count
        ):
            return
        for item in self.option_fields:
            if item.spec.kind != "bool":
                continue
            flipped = {**options, item.spec.name: not item.value}
            if count in engine.allowed_player_counts(flipped) and not engine.option_problems(
                flipped, count
            ):
                item.value = not item.value
                item.text = "on" if item.value else ""
                return

    def option_values(self) -> dict[str, Any]:
        return {f.spec.name: f.value for f in self.option_fields}

    @property
    def options_ok(self) -> bool:
        return not any(f.error for f in self.option_fields)

    @property
    def option_groups(self) -> list[OptionGroup]:
        groups: dict[str, list[OptionField]] = {}
        for item in self.option_fields:
            groups.setdefault(item.spec.group, []).append(item)
        return [OptionGroup(name, items) for name, items in groups.items()]

    @property
    def counts(self) -> list[dict[str, Any]]:
        if self.engine is None:
            return []
        return [{"value": c, "selected": c == self.count} for c in possible_counts(self.engine)]

    @property
    def first_dealer(self) -> int:
        seat = parse_int(self.data.get("first_dealer", "") or "")
        return seat if seat is not None and 0 <= seat < max(self.count, 1) else 0

    @property
    def confirmation_choices(self) -> list[Choice]:
        return [
            Choice(value, gettext(label), value == self.confirmation)
            for value, label in Confirmation.choices
        ]

    # -- cleaning ----------------------------------------------------------

    def clean(self) -> dict[str, Any] | None:
        """The game record to create, or None with the errors filled in."""
        if self.engine is None:
            self.errors.append(gettext("Choose a game."))
            return None
        names = [p.name.strip() for p in self.players]
        seen: dict[str, int] = {}
        for player, name in zip(self.players, names, strict=True):
            if not name:
                player.error = gettext("Type the name of the player in seat %(seat)s.") % {
                    "seat": player.seat + 1
                }
            elif name.casefold() in seen:
                player.error = gettext("%(name)s is already at seat %(seat)s.") % {
                    "name": name,
                    "seat": seen[name.casefold()] + 1,
                }
            else:
                seen[name.casefold()] = player.seat
        if not self.options_ok or any(p.error for p in self.players):
            return None
        return {
            "format": 1,
            "game": self.game,
            "players": names,
            "options": self.option_values(),
            "first_dealer": self.first_dealer,
            "rounds": [],
        }

    def add_problems(self, problems: Iterable[Problem]) -> None:
        """Place the engine's problems with a record beside the options or players."""
        by_option = {f.spec.name: f for f in self.option_fields}
        for problem in problems:
            where = problem.field or ""
            if where.startswith("options."):
                item = by_option.get(where.split(".", 1)[1])
                if item is not None:
                    item.error = problem_text(problem, seats_from=1)
                    continue
            if where == "players":
                self.count_error = problem_text(problem, seats_from=1)
                continue
            if where == "first_dealer":
                self.first_dealer_error = problem_text(problem, seats_from=1)
                continue
            self.errors.append(problem_text(problem, seats_from=1))

    @property
    def has_errors(self) -> bool:
        return bool(
            self.errors
            or self.count_error
            or self.first_dealer_error
            or any(p.error for p in self.players)
            or not self.options_ok
        )
