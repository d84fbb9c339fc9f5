"""Posted form fields to engine inputs and back.

Two forms live here. ``NewGameForm`` turns the start page (game, players in seat
order, options from the engine's option descriptions, confirmation) into a game
record. ``EntryForm`` and its per-game subclasses turn the table page's round
form into the engine's round entry, and an entry back into form values for a
correction. Both are built from the engines' descriptions (``OptionSpec`` and
``FieldSpec``), so a new game gets a working form before it gets a tailored one.

Field names on the page follow the engine's field names: ``bidder``,
``won-A`` (per side), ``bids-3`` (per seat), ``dice-0``, ``widow.buyer``
(a part of an object), ``penalties-0-points``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.utils.datastructures import MultiValueDict

from scoring.engines import roller_derby, roolz
from scoring.engines.base import MAX_NAME_LENGTH, Engine, FieldSpec, OptionSpec, Problem
from scoring.engines.registry import ENGINES
from scoring.models import Confirmation

# Rummoli's sections as the board prints them.
SECTION_SHORT: dict[str, str] = {
    "rummoli": "Rummoli",
    "poker": "Poker",
    "ten_spades": "10♠",
    "jack_diamonds": "J♦",
    "queen_clubs": "Q♣",
    "king_hearts": "K♥",
    "ace_spades": "A♠",
    "ace_king_diamonds": "A♦ K♦",
    "seven_eight_nine": "7-8-9",
}
RED_SECTIONS = frozenset({"jack_diamonds", "king_hearts", "ace_king_diamonds"})
MAX_PENALTY_ROWS = 4
TRUE_WORDS = frozenset({"on", "1", "true", "yes", "made"})
FALSE_WORDS = frozenset({"off", "0", "false", "no", "failed"})
NO_SEAT = "none"  # a radio or checkbox value meaning "nobody" (a twofer, a deadlock, ...)


# --------------------------------------------------------------------------- small pieces


@dataclass(frozen=True)
class SeatInfo:
    """One player at the table as forms and pages show them."""

    number: int
    name: str
    team: str = ""

    @property
    def label(self) -> str:
        return f"{self.name} ({self.team})" if self.team else self.name


@dataclass
class Choice:
    value: str
    label: str
    selected: bool = False
    disabled: bool = False
    note: str = ""


@dataclass
class BoundField:
    """One control (or group of controls) of a form, ready for a template."""

    name: str
    label: str
    kind: str
    help: str = ""
    value: str = ""
    values: list[str] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    items: list[BoundField] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    required: bool = True
    minimum: int | None = None
    maximum: int | None = None
    step: int = 1
    hidden: bool = False
    disabled: bool = False
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def by_name(self) -> dict[str, BoundField]:
        return {item.name.rsplit(".", 1)[-1]: item for item in self.items}

    @property
    def all_errors(self) -> list[str]:
        found = list(self.errors)
        for item in self.items:
            found += item.all_errors
        return found


def as_data(data: Any) -> MultiValueDict:
    """A MultiValueDict of strings, from a QueryDict, a plain dict or None."""
    if data is None:
        return MultiValueDict()
    if isinstance(data, MultiValueDict):
        return data
    result = MultiValueDict()
    for key, value in data.items():
        if isinstance(value, list | tuple):
            result.setlist(key, [str(v) for v in value])
        else:
            result[key] = str(value)
    return result


def parse_int(text: str) -> int | None:
    text = text.strip().replace("\u2212", "-")
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        return None


def and_list(names: Sequence[str]) -> str:
    """ "Ann", "Ann & Cat", "Ann, Cat & Eve"."""
    names = list(names)
    if len(names) < 3:
        return " & ".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def humanize(value: Any) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    if value is None:
        return "empty"
    return str(value).replace("_", " ")


# --------------------------------------------------------------------------- round entry


class EntryForm:
    """The round form of one game, generated from its engine's ``round_fields``.

    ``data`` holds posted values (a QueryDict or a dict of lists); ``context``
    is the engine's ``next`` block for the round being entered (dealer, roller,
    chips ...). ``clean()`` returns the entry for the engine, or None with
    ``errors`` filled in; ``add_problems`` places the engine's problems beside
    their fields.
    """

    game: ClassVar[str] = ""
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
        self.specs = engine.round_fields(len(self.seats), self.options)
        self.errors: list[str] = []  # messages no field claims
        self.fields: list[BoundField] = [self.build(spec) for spec in self.specs]
        self.adjust()

    # -- construction ------------------------------------------------------

    @property
    def f(self) -> dict[str, BoundField]:
        return {item.name: item for item in self.fields}

    @property
    def dealer(self) -> int | None:
        dealer = self.context.get("dealer")
        return dealer if isinstance(dealer, int) else None

    def seat_choices(self, name: str, *, multiple: bool = False) -> list[Choice]:
        chosen = set(self.data.getlist(name)) if multiple else {self.data.get(name, "")}
        return [
            Choice(str(seat.number), seat.name, str(seat.number) in chosen, note=seat.team)
            for seat in self.seats
        ]

    def build(self, spec: FieldSpec, prefix: str = "") -> BoundField:
        name = f"{prefix}{spec.name}"
        bound = BoundField(
            name=name,
            label=spec.label,
            kind=spec.kind,
            help=spec.help,
            required=spec.required,
            minimum=spec.minimum,
            maximum=spec.maximum,
            step=spec.step,
        )
        kind = spec.kind
        if kind in {"int", "bool"}:
            bound.value = self.data.get(name, "")
        elif kind == "seat":
            bound.value = self.data.get(name, "")
            bound.choices = self.seat_choices(name)
        elif kind == "seats":
            bound.values = self.data.getlist(name)
            bound.choices = self.seat_choices(name, multiple=True)
        elif kind == "choice":
            bound.value = self.data.get(name, "")
            bound.choices = [
                Choice(str(c), humanize(c), bound.value == str(c)) for c in spec.choices
            ]
        elif kind == "per_seat":
            bound.items = [
                BoundField(
                    name=f"{name}-{seat.number}",
                    label=seat.name,
                    kind="int",
                    value=self.data.get(f"{name}-{seat.number}", ""),
                    minimum=spec.minimum,
                    maximum=spec.maximum,
                    extra={"seat": seat.number, "team": seat.team},
                )
                for seat in self.seats
            ]
        elif kind == "per_side":
            bound.items = [
                BoundField(
                    name=f"{name}-{key}",
                    label=self.side_label(key),
                    kind="int",
                    value=self.data.get(f"{name}-{key}", ""),
                    minimum=spec.minimum,
                    maximum=spec.maximum,
                    step=spec.step,
                    extra={"side": key},
                )
                for key in spec.keys
            ]
        elif kind == "dice":
            count = spec.count or 1
            bound.items = [
                BoundField(
                    name=f"{name}-{index}",
                    label="Die" if count == 1 else f"Die {index + 1}",
                    kind="int",
                    value=self.data.get(f"{name}-{index}", ""),
                    minimum=spec.minimum,
                    maximum=spec.maximum,
                )
                for index in range(count)
            ]
            for item in bound.items:
                item.choices = [
                    Choice(str(n), str(n), item.value == str(n))
                    for n in range(spec.minimum or 1, (spec.maximum or 6) + 1)
                ]
        elif kind == "penalties":
            bound.items = self.penalty_rows(name)
        elif kind == "object":
            bound.items = [self.build(part, prefix=f"{name}.") for part in spec.parts]
        return bound

    def penalty_rows(self, name: str) -> list[BoundField]:
        rows: list[BoundField] = []
        for index in range(MAX_PENALTY_ROWS):
            prefix = f"{name}-{index}"
            player = self.data.get(f"{prefix}-player", "")
            points = self.data.get(f"{prefix}-points", "")
            reason = self.data.get(f"{prefix}-reason", "")
            filled = bool(player or reason or (points and points != self.default_points))
            if index and not filled and any(not r.extra["filled"] for r in rows):
                break
            if not self.bound and not points and self.penalty_points is not None:
                points = str(self.penalty_points)
            row = BoundField(
                name=prefix,
                label=f"Penalty {index + 1}",
                kind="penalty",
                extra={"filled": filled, "number": index + 1},
            )
            row.items = [
                BoundField(
                    name=f"{prefix}-player",
                    label="Player",
                    kind="seat",
                    value=player,
                    choices=[
                        Choice(str(s.number), s.name, player == str(s.number)) for s in self.seats
                    ],
                ),
                BoundField(name=f"{prefix}-points", label="Points", kind="int", value=points),
                BoundField(name=f"{prefix}-reason", label="Reason", kind="text", value=reason),
            ]
            rows.append(row)
        return rows

    @property
    def default_points(self) -> str:
        return "" if self.penalty_points is None else str(self.penalty_points)

    def side_label(self, key: str) -> str:
        return key

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
            self.fail(problem.field or "", problem.message)

    @property
    def has_errors(self) -> bool:
        return bool(self.errors) or any(f.all_errors for f in self.fields)

    @property
    def error_count(self) -> int:
        return len(self.errors) + sum(len(f.all_errors) for f in self.fields)

    def read_int(self, bound: BoundField, *, required: bool | None = None) -> int | None:
        text = self.data.get(bound.name, "")
        required = bound.required if required is None else required
        if not text.strip():
            if required:
                what = bound.extra.get("enter") or f"the {bound.label.lower()}"
                self.fail(bound.name, f"Enter {what}.")
            return None
        number = parse_int(text)
        if number is None:
            self.fail(bound.name, f"{bound.label} must be a whole number.")
        return number

    @staticmethod
    def choose_what(bound: BoundField) -> str:
        """What a seat field asks for: "the bidder", "who bought the widow"."""
        return bound.extra.get("choose") or f"the {bound.label.lower()}"

    def read_seat(self, bound: BoundField, *, required: bool | None = None) -> int | None:
        text = self.data.get(bound.name, "")
        required = bound.required if required is None else required
        if not text or text == NO_SEAT:
            if required:
                self.fail(bound.name, f"Choose {self.choose_what(bound)}.")
            return None
        number = parse_int(text)
        if number is None or not 0 <= number < len(self.seats):
            self.fail(bound.name, f"Choose {self.choose_what(bound)} among the players.")
            return None
        return number

    def read_bool(self, bound: BoundField) -> bool | None:
        text = self.data.get(bound.name, "").strip().lower()
        if text in TRUE_WORDS:
            return True
        if text in FALSE_WORDS:
            return False
        return None

    def read_field(self, bound: BoundField) -> tuple[bool, Any]:
        """(present, value) for one field by its kind; problems go to ``fail``."""
        kind = bound.kind
        if kind == "int":
            value = self.read_int(bound)
            return value is not None, value
        if kind == "seat":
            value = self.read_seat(bound)
            return value is not None, value
        if kind == "bool":
            value = self.read_bool(bound)
            return value is not None, value
        if kind == "choice":
            text = self.data.get(bound.name, "")
            if not text:
                if bound.required:
                    self.fail(bound.name, f"Choose the {bound.label.lower()}.")
                return False, None
            for choice in bound.choices:
                if choice.value == text:
                    return True, self.choice_value(bound, text)
            self.fail(bound.name, f"Choose one of the {bound.label.lower()} options.")
            return False, None
        if kind == "seats":
            seats: list[int] = []
            for text in self.data.getlist(bound.name):
                if text == NO_SEAT:
                    continue
                number = parse_int(text)
                if number is None or not 0 <= number < len(self.seats):
                    self.fail(bound.name, f"Choose {self.choose_what(bound)} among the players.")
                    return False, None
                if number not in seats:
                    seats.append(number)
            return True, seats
        if kind in {"per_seat", "per_side", "dice"}:
            numbers: list[int | None] = []
            missing: list[str] = []
            for item in bound.items:
                text = self.data.get(item.name, "")
                if not text.strip():
                    if bound.required or kind == "dice":
                        missing.append(item.label)
                        item.extra["missing"] = True  # outlined beside the field's message
                        numbers.append(None)
                    else:
                        numbers.append(0)
                    continue
                number = parse_int(text)
                if number is None:
                    self.fail(item.name, f"{item.label}: enter a whole number.")
                numbers.append(number)
            if missing:
                self.fail(bound.name, self.missing_message(bound, missing))
            if missing or any(n is None for n in numbers):
                return False, None
            if kind == "per_side":
                return True, {
                    item.extra["side"]: n for item, n in zip(bound.items, numbers, strict=True)
                }
            return True, numbers
        if kind == "penalties":
            return self.read_penalties(bound)
        if kind == "object":
            parts: dict[str, Any] = {}
            for item in bound.items:
                present, value = self.read_field(item)
                if present:
                    parts[item.name.rsplit(".", 1)[-1]] = value
            return bool(parts), parts
        raise ValueError(f"unknown field kind {kind!r}")  # a bug, not a user mistake

    def missing_message(self, bound: BoundField, missing: list[str]) -> str:
        if bound.kind == "dice":
            return "Tap the dice that were rolled."
        if len(missing) == len(bound.items):
            return f"Enter the {bound.label.lower()}."
        return f"{bound.label}: enter a number for " + ", ".join(missing) + "."

    def choice_value(self, bound: BoundField, text: str) -> Any:
        spec = self.spec_of(bound.name)
        for choice in spec.choices if spec else ():
            if str(choice) == text:
                return choice
        return text

    def spec_of(self, name: str) -> FieldSpec | None:
        for spec in self.specs:
            if spec.name == name:
                return spec
        return None

    def read_penalties(self, bound: BoundField) -> tuple[bool, Any]:
        found: list[dict[str, Any]] = []
        for row in bound.items:
            player_field, points_field, reason_field = row.items
            player_text = self.data.get(player_field.name, "")
            reason = self.data.get(reason_field.name, "").strip()
            if not player_text:
                if reason:
                    self.fail(player_field.name, "Choose who is penalised.")
                continue
            seat = self.read_seat(player_field, required=True)
            points = self.read_int(points_field, required=True)
            if points is not None and points < 0:
                self.fail(points_field.name, "Penalty points cannot be negative.")
                continue
            if seat is None or points is None:
                continue
            item: dict[str, Any] = {"player": seat, "points": points}
            if reason:
                item["reason"] = reason[:200]
            found.append(item)
        return bool(found), found

    def clean(self) -> dict[str, Any] | None:
        """The round entry for the engine, or None when the form has mistakes."""
        entry: dict[str, Any] = {}
        for bound in self.fields:
            if bound.hidden:
                continue
            present, value = self.read_field(bound)
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
        data = MultiValueDict()
        for spec in specs:
            if spec.name in entry:
                cls._put(data, spec, spec.name, entry[spec.name])
        return data

    @classmethod
    def _put(cls, data: MultiValueDict, spec: FieldSpec, name: str, value: Any) -> None:
        kind = spec.kind
        if value is None:
            return
        if kind == "bool":
            data[name] = "yes" if value else "no"
        elif kind in {"int", "seat", "choice"}:
            data[name] = str(value)
        elif kind == "seats":
            data.setlist(name, [str(v) for v in value] or [NO_SEAT])
        elif kind in {"per_seat", "dice"}:
            for index, item in enumerate(value):
                data[f"{name}-{index}"] = str(item)
        elif kind == "per_side":
            for key, item in value.items():
                data[f"{name}-{key}"] = str(item)
        elif kind == "penalties":
            for index, item in enumerate(value[:MAX_PENALTY_ROWS]):
                data[f"{name}-{index}-player"] = str(item.get("player", ""))
                data[f"{name}-{index}-points"] = str(item.get("points", ""))
                data[f"{name}-{index}-reason"] = str(item.get("reason", ""))
        elif kind == "object" and isinstance(value, Mapping):
            parts = {part.name: part for part in spec.parts}
            for key, item in value.items():
                if key in parts:
                    cls._put(data, parts[key], f"{name}.{key}", item)


# --------------------------------------------------------------------------- per game


class RoolzForm(EntryForm):
    game = "roolz"

    @property
    def setup(self) -> roolz.Setup:
        return roolz.setup_for(len(self.seats), self.options)

    def side_label(self, key: str) -> str:
        if key == roolz.BIDDER:
            return "Bidder's side"
        if key == roolz.OPPONENTS:
            return "Opponents"
        return f"Team {key}"

    def adjust(self) -> None:
        fields = self.f
        fields["misdeal"].hidden = True  # recorded by its own button
        setup = self.setup
        fields["bid"].extra["quick"] = quick_bids(setup.min_bid)
        slam = fields["all_tricks"]
        slam.choices = [Choice("", "No", not slam.value)] + [
            Choice(c.value, self.side_label(c.value), c.selected) for c in slam.choices
        ]
        slam.extra["fills"] = not self.options.get("point_discards", False)
        partners = fields.get("partners")
        if partners is not None:
            partners.extra["call"] = setup.call
            nobody = roolz.no_partner_choice(setup.call)
            if nobody:
                partners.choices.append(Choice(NO_SEAT, nobody, NO_SEAT in partners.values))
        fields["won"].extra["individual"] = setup.individual
        for item in fields["won"].items:
            item.extra["members"] = self.members(item.extra["side"])
        for choice in slam.choices:
            members = self.members(choice.value)
            if choice.value and members:
                choice.note = members

    def members(self, key: str) -> str:
        return and_list([s.name for s in self.seats if key and s.team == key])

    def read_field(self, bound: BoundField) -> tuple[bool, Any]:
        if bound.name == "partners" and self.setup.call in (roolz.CALL_ONE, roolz.CALL_FIVE):
            chosen = [v for v in self.data.getlist("partners") if v]
            if not chosen:
                message = (
                    "Choose the partner, or twofer if the card was in the low hand."
                    if self.setup.call == roolz.CALL_FIVE
                    else f'Choose the partner, or "{roolz.no_partner_choice(self.setup.call)}".'
                )
                self.fail("partners", message)
                return False, None
        if bound.name == "won":
            return self.read_won(bound)
        return super().read_field(bound)

    def read_won(self, bound: BoundField) -> tuple[bool, Any]:
        """Points per side; one side left empty is the rest of the round's 300."""
        values: dict[str, int | None] = {}
        for item in bound.items:
            text = self.data.get(item.name, "")
            if not text.strip():
                values[item.extra["side"]] = None
                continue
            number = parse_int(text)
            if number is None:
                self.fail(bound.name, f"{item.label}: enter a whole number.")
                return False, None
            values[item.extra["side"]] = number
        blank = [key for key, value in values.items() if value is None]
        slam = self.data.get("all_tricks", "")
        if len(blank) == len(values) and slam in values and not self.options.get("point_discards"):
            return True, {key: roolz.ROUND_POINTS if key == slam else 0 for key in values}
        if len(blank) == 1:
            rest = roolz.ROUND_POINTS - sum(v for v in values.values() if v is not None)
            values[blank[0]] = rest
        elif blank:
            needed = len(values) - 1
            self.fail(
                bound.name,
                "Enter the points won"
                + (" by one side" if needed == 1 else f" by {needed} of the sides")
                + "; the rest of 300 goes to the other.",
            )
            return False, None
        return True, values

    def finish(self, entry: dict[str, Any]) -> dict[str, Any]:
        if entry.get("misdeal") is not True:
            entry.pop("misdeal", None)
        return entry


def quick_bids(minimum: int) -> list[int]:
    if minimum <= 110:
        return [110, 120, 150, 200, 250, 300]
    return [minimum, 180, 200, 220, 250, 300]


class RollerDerbyForm(EntryForm):
    game = "roller_derby"
    penalty_points = roller_derby.PENALTY_SIZE

    def adjust(self) -> None:
        fields = self.f
        tricks = fields["tricks"]
        tricks.choices = [
            Choice(str(n), str(n), tricks.value == str(n))
            for n in range(0, roller_derby.TRICKS + 1)
        ]
        jokers = fields.get("jokers")
        if jokers is not None:
            if not jokers.value:
                jokers.value = "0"
            jokers.choices = [
                Choice(str(n), str(n), jokers.value == str(n))
                for n in range(0, roller_derby.MAX_JOKERS + 1)
            ]
        team = self.context.get("roller_team")
        used = self.context.get("all_or_nothing_used", {})
        aon = fields["all_or_nothing"]
        if team and used.get(team):
            aon.disabled = True
            aon.note = f"Team {team} has already played all or nothing in this game."
        made = fields["made"]
        made.choices = [
            Choice("yes", "Made: 150", made.value == "yes"),
            Choice("no", "Failed: 0", made.value == "no"),
        ]

    def finish(self, entry: dict[str, Any]) -> dict[str, Any]:
        if entry.get("all_or_nothing") is True:
            entry.pop("tricks", None)
            entry.pop("jokers", None)
            if "made" not in entry:
                self.fail("made", "Say whether the all-or-nothing deal was made.")
        else:
            entry.pop("all_or_nothing", None)
            entry.pop("made", None)
            if "tricks" not in entry and not self.find("tricks").errors:
                self.fail("tricks", "Tap the tricks won by the Roller's team.")
        if entry.get("jokers") == 0:
            entry.pop("jokers")
        return entry


class RookSluffForm(EntryForm):
    game = "rook_sluff"

    def adjust(self) -> None:
        fields = self.f
        self.tricks = fields["tricks"].maximum or 0
        self.teams = sorted({seat.team for seat in self.seats if seat.team})
        self.rows = [
            {"seat": seat, "bid": bid, "took": took, "deals": seat.number == self.dealer}
            for seat, bid, took in zip(
                self.seats, fields["bids"].items, fields["tricks"].items, strict=True
            )
        ]


class RummoliForm(EntryForm):
    game = "rummoli"

    def adjust(self) -> None:
        fields = self.f
        out = set(self.context.get("out", []))
        dealer = self.dealer

        def mark(choices: list[Choice], *, no_dealer: bool = False) -> None:
            for choice in choices:
                seat = parse_int(choice.value)
                if seat in out:
                    choice.disabled, choice.note = True, "out"
                elif no_dealer and seat == dealer:
                    choice.disabled, choice.note = True, "deals"

        widow = fields["widow"]
        parts = widow.by_name
        mode = self.data.get("widow", "")
        if not mode:
            if self.data.get("widow.exchange"):
                mode = "exchange"
            elif self.data.get("widow.buyer") or self.data.get("widow.price"):
                mode = "buy"
        widow.value = mode
        widow.choices = [
            Choice("", "Nobody took it", mode == ""),
            Choice("exchange", "Dealer exchanged", mode == "exchange"),
            Choice("buy", "Bought", mode == "buy"),
        ]
        mark(parts["buyer"].choices, no_dealer=True)
        parts["buyer"].extra["choose"] = "who bought the widow"
        parts["price"].extra["enter"] = "the price paid for the widow"
        poker = fields["poker"].by_name
        mark(poker["winners"].choices)
        poker["winners"].extra["choose"] = "who won the poker pot"
        if "bets" in poker:
            for item in poker["bets"].items:
                if item.extra["seat"] in out:
                    item.disabled = True
        board = self.context.get("board", {})
        ante = self.options.get("ante", 1)
        playing = len(self.seats) - len(out)
        for item in fields["pay_cards"].items:
            section = item.name.rsplit(".", 1)[-1]
            item.extra["chips"] = board.get(section, 0) + ante * playing
            item.extra["short"] = SECTION_SHORT.get(section, item.label)
            item.extra["red"] = section in RED_SECTIONS
            item.choices = [Choice("", "Not claimed", not item.value), *item.choices]
            mark(item.choices)
        went_out = fields["went_out"]
        went_out.choices.append(Choice(NO_SEAT, "Deadlock", went_out.value == NO_SEAT))
        mark(went_out.choices)
        for item in fields["cards_left"].items:
            if item.extra["seat"] in out:
                item.disabled = True

    def read_field(self, bound: BoundField) -> tuple[bool, Any]:
        if bound.name == "widow":
            mode = bound.value
            parts = bound.by_name
            if mode == "exchange":
                return True, {"exchange": True}
            if mode == "buy":
                buyer = self.read_seat(parts["buyer"], required=True)
                price = self.read_int(parts["price"], required=True)
                if buyer is None or price is None:
                    return False, None
                return True, {"buyer": buyer, "price": price}
            return False, None
        if bound.name == "poker":
            parts = bound.by_name
            _, winners = super().read_field(parts["winners"])
            bets: list[int] | None = None
            if "bets" in parts:
                _, bets = super().read_field(parts["bets"])
            if not winners:
                if bets and any(bets):
                    self.fail("poker.winners", "Choose who won the poker pot.")
                return False, None
            value: dict[str, Any] = {"winners": winners}
            if bets and any(bets):
                value["bets"] = bets
            return True, value
        if bound.name == "pay_cards":
            claims: dict[str, int] = {}
            for item in bound.items:
                seat = self.read_seat(item, required=False)
                if seat is not None:
                    claims[item.name.rsplit(".", 1)[-1]] = seat
            return bool(claims), claims
        if bound.name == "went_out":
            text = self.data.get("went_out", "")
            if text == NO_SEAT:
                return True, None
            if not text:
                self.fail("went_out", "Choose who went out, or deadlock.")
                return False, None
            return super().read_field(bound)
        if bound.name == "cards_left":
            went_out = parse_int(self.data.get("went_out", ""))
            out = set(self.context.get("out", []))
            for item in bound.items:
                seat = item.extra["seat"]
                if (seat == went_out or seat in out) and not self.data.get(item.name, "").strip():
                    self.data = self.data.copy()
                    self.data[item.name] = "0"
        return super().read_field(bound)

    def finish(self, entry: dict[str, Any]) -> dict[str, Any]:
        if "went_out" not in entry and not self.find("went_out").errors:
            self.fail("went_out", "Choose who went out, or deadlock.")
        return entry

    @classmethod
    def data_for(cls, entry: Mapping[str, Any], specs: Sequence[FieldSpec]) -> MultiValueDict:
        data = super().data_for(entry, specs)
        widow = entry.get("widow")
        if isinstance(widow, Mapping):
            data["widow"] = "exchange" if widow.get("exchange") else "buy"
        if "went_out" in entry and entry["went_out"] is None:
            data["went_out"] = NO_SEAT
        return data


ENTRY_FORMS: dict[str, type[EntryForm]] = {
    form.game: form for form in (RoolzForm, RollerDerbyForm, RookSluffForm, RummoliForm)
}


def entry_form_class(game: str) -> type[EntryForm]:
    return ENTRY_FORMS.get(game, EntryForm)


# --------------------------------------------------------------------------- a new game


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
    def games(self) -> list[dict[str, Any]]:
        return [
            {
                "key": key,
                "title": engine.title,
                "summary": engine.summary,
                "counts": self.counts_label(engine),
                "selected": key == self.game,
            }
            for key, engine in ENGINES.items()
        ]

    @staticmethod
    def possible_counts(engine: Engine) -> list[int]:
        """Every player count the game takes under some option (a bool switched on)."""
        counts = set(engine.player_counts)
        for spec in engine.option_specs():
            if spec.kind == "bool":
                counts |= set(engine.allowed_player_counts({spec.name: True}))
        return sorted(counts)

    def counts_label(self, engine: Engine) -> str:
        counts = self.possible_counts(engine)
        if len(counts) == 1:
            return f"{counts[0]} players"
        if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
            return f"{counts[0]}-{counts[-1]} players"
        return ", ".join(str(c) for c in counts[:-1]) + f" or {counts[-1]} players"

    def build(self) -> None:
        engine = self.engine
        assert engine is not None
        counts = self.possible_counts(engine)
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
        fields: list[OptionField] = []
        posted = self.bound and "option-present" in self.data and self.data.get("refresh") != "game"
        for spec in engine.option_specs():
            if spec.player_counts and count not in spec.player_counts:
                continue
            name = f"option-{spec.name}"
            text = self.data.get(name, "") if posted else ""
            value: Any = spec.default
            error = ""
            if spec.kind == "bool":
                value = (text in TRUE_WORDS) if posted else spec.default
                text = "on" if value else ""
            elif not posted or name not in self.data:
                text = "" if spec.default is None else str(spec.default)
            elif spec.kind == "choice":
                match = [c for c in spec.choices if str(c) == text]
                if match:
                    value = match[0]
                else:
                    error = f"Choose one of: {', '.join(humanize(c) for c in spec.choices)}."
            elif spec.kind in {"int", "int_or_null"}:
                number = parse_int(text)
                if not text.strip() and spec.kind == "int_or_null":
                    value = None
                elif number is None:
                    error = "Enter a whole number."
                else:
                    value = number
                    error = (spec.problem(number) or "").replace(f"option {spec.name} ", "It ")
            fields.append(OptionField(spec, value, text, error))
        return fields

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
        return [
            {"value": c, "selected": c == self.count} for c in self.possible_counts(self.engine)
        ]

    @property
    def first_dealer(self) -> int:
        seat = parse_int(self.data.get("first_dealer", "") or "")
        return seat if seat is not None and 0 <= seat < max(self.count, 1) else 0

    @property
    def confirmation_choices(self) -> list[Choice]:
        return [
            Choice(value, label, value == self.confirmation)
            for value, label in Confirmation.choices
        ]

    # -- cleaning ----------------------------------------------------------

    def clean(self) -> dict[str, Any] | None:
        """The game record to create, or None with the errors filled in."""
        if self.engine is None:
            self.errors.append("Choose a game.")
            return None
        names = [p.name.strip() for p in self.players]
        seen: dict[str, int] = {}
        for player, name in zip(self.players, names, strict=True):
            if not name:
                player.error = f"Type the name of the player in seat {player.seat + 1}."
            elif name.casefold() in seen:
                player.error = f"{name} is already at seat {seen[name.casefold()] + 1}."
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
                    item.error = problem.message
                    continue
            if where == "players":
                self.count_error = problem.message
                continue
            if where == "first_dealer":
                self.first_dealer_error = problem.message
                continue
            self.errors.append(problem.message)

    @property
    def has_errors(self) -> bool:
        return bool(
            self.errors
            or self.count_error
            or self.first_dealer_error
            or any(p.error for p in self.players)
            or not self.options_ok
        )
