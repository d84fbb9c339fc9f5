"""Field kinds: one handler per kind of round input, instead of a chain of ifs per task.

A round form is built from the engine's ``FieldSpec`` descriptions. Each spec has a
kind ("seat", "seats", "int", "per_side", ...); the handler of that kind knows how
the field is built for a page (``build``), read back from posted values
(``read``), written out again for a correction (``put``), shown as a line in a
history or a preview (``text``) and which partial of ``scoring/entry/fields.html``
draws it when a game has no layout of its own (``partial``).

A game's kit may give one of its fields a more telling kind (points that are
"the rest of 300", counts that must add up, sections a seat claims); those are
handlers too. Limits are never written here: they come from the spec.

Field names on the page follow the engine's field names: ``bidder``, ``won-A``
(per side), ``bids-3`` (per seat), ``dice-0``, ``widow.buyer`` (a part of an
object), ``penalties-0-points``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext, pgettext

from scoring.engines.base import FieldSpec, is_int
from scoring.engines.base import seats_from_one as seats_from_one  # where the pages read it

# Words in the reader's language, where the kits and the template tags read them.
from scoring.wording import ROUND_WORDS as ROUND_WORDS
from scoring.wording import said_word as said_word
from scoring.wording import said_words as said_words
from scoring.wording import words as words

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
    partial: str = ""
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

    @property
    def limits(self) -> dict[str, Any]:
        """The spec's limits, for a template's data attributes and the game's script."""
        return {"minimum": self.minimum, "maximum": self.maximum, "step": self.step}


def as_data(data: Any) -> MultiValueDict:
    """A MultiValueDict of strings, from a QueryDict, a plain dict or None."""
    if data is None:
        return MultiValueDict()
    if isinstance(data, MultiValueDict):
        return data
    result: MultiValueDict[str, str] = MultiValueDict()
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
        return gettext("on")
    if value is False:
        return gettext("off")
    if value is None:
        return gettext("empty")
    return str(value).replace("_", " ")


def whole_number_message(item: BoundField) -> str:
    return gettext("%(label)s: enter a whole number.") % {"label": item.label}


class FormLike(Protocol):
    """What a field handler needs of the form it serves."""

    data: MultiValueDict
    seats: list[SeatInfo]
    bound: bool
    penalty_points: ClassVar[int | None]

    def fail(self, name: str, message: str) -> None: ...

    def kind_of(self, spec: FieldSpec) -> FieldKind: ...


Reading = tuple[bool, Any]  # (present, value)


# --------------------------------------------------------------------------- the kinds


class FieldKind:
    """The base handler: a single text value, shown as it is."""

    partial: ClassVar[str] = "number"

    def build(self, form: FormLike, spec: FieldSpec, name: str) -> BoundField:
        bound = BoundField(
            name=name,
            label=words(spec.label),
            kind=spec.kind,
            help=words(spec.help),
            required=spec.required,
            minimum=spec.minimum,
            maximum=spec.maximum,
            step=spec.step,
            partial=self.partial,
        )
        bound.value = form.data.get(name, "")
        self.fill(form, spec, bound)
        return bound

    def fill(self, form: FormLike, spec: FieldSpec, bound: BoundField) -> None:
        """Kind-specific parts of a freshly built field (choices, items)."""

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        raise NotImplementedError

    def put(self, data: MultiValueDict, spec: FieldSpec, name: str, value: Any) -> None:
        data[name] = str(value)

    def text(self, spec: FieldSpec, value: Any, names: Mapping[int, str]) -> str:
        return str(value)


def who(names: Mapping[int, str], seat: Any) -> str:
    return names.get(seat, "?") if is_int(seat) else "?"


def read_int(form: FormLike, bound: BoundField, *, required: bool | None = None) -> int | None:
    text = form.data.get(bound.name, "")
    required = bound.required if required is None else required
    if not text.strip():
        if required:
            form.fail(bound.name, enter_message(bound))
        return None
    number = parse_int(text)
    if number is None:
        form.fail(bound.name, gettext("%(label)s must be a whole number.") % {"label": bound.label})
    return number


def enter_message(bound: BoundField) -> str:
    """What an empty box asks for: "Enter the bid.", or what the kit says it holds."""
    what = bound.extra.get("enter")
    if what:
        return gettext("Enter %(what)s.") % {"what": what}
    return gettext("Enter the %(what)s.") % {"what": bound.label.lower()}


def choose_message(bound: BoundField, *, among: bool = False) -> str:
    """What a seat field asks for: "Choose the bidder.", or what the kit says ("Choose who
    bought the widow."); ``among``: the seat given is none of the players'."""
    what = bound.extra.get("choose")
    if what:
        if among:
            return gettext("Choose %(what)s among the players.") % {"what": what}
        return gettext("Choose %(what)s.") % {"what": what}
    values = {"what": bound.label.lower()}
    if among:
        return gettext("Choose the %(what)s among the players.") % values
    return gettext("Choose the %(what)s.") % values


def read_seat(form: FormLike, bound: BoundField, *, required: bool | None = None) -> int | None:
    text = form.data.get(bound.name, "")
    required = bound.required if required is None else required
    if not text or text == NO_SEAT:
        if required:
            form.fail(bound.name, choose_message(bound))
        return None
    number = parse_int(text)
    if number is None or not 0 <= number < len(form.seats):
        form.fail(bound.name, choose_message(bound, among=True))
        return None
    return number


def seat_choices(form: FormLike, name: str, *, multiple: bool = False) -> list[Choice]:
    chosen = set(form.data.getlist(name)) if multiple else {form.data.get(name, "")}
    return [
        Choice(str(seat.number), seat.name, str(seat.number) in chosen, note=seat.team)
        for seat in form.seats
    ]


class Number(FieldKind):
    """A whole number; the kit may offer quick choices (``quick``) beside it."""

    def __init__(self, quick: Sequence[int] = ()):
        self.quick = tuple(quick)

    def fill(self, form: FormLike, spec: FieldSpec, bound: BoundField) -> None:
        if self.quick:
            bound.extra["quick"] = list(self.quick)

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        value = read_int(form, bound)
        return value is not None, value


class NumberChips(Number):
    """A small whole number tapped from chips, every value from the spec's minimum to maximum."""

    partial = "chips"

    def fill(self, form: FormLike, spec: FieldSpec, bound: BoundField) -> None:
        low = spec.minimum or 0
        high = spec.maximum if spec.maximum is not None else low
        bound.choices = [
            Choice(str(n), str(n), bound.value == str(n)) for n in range(low, high + 1)
        ]


class Flag(FieldKind):
    partial = "switch"

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        text = form.data.get(bound.name, "").strip().lower()
        if text in TRUE_WORDS:
            return True, True
        if text in FALSE_WORDS:
            return True, False
        return False, None

    def put(self, data: MultiValueDict, spec: FieldSpec, name: str, value: Any) -> None:
        data[name] = "yes" if value else "no"

    def text(self, spec: FieldSpec, value: Any, names: Mapping[int, str]) -> str:
        return pgettext("an answer", "yes") if value is True else pgettext("an answer", "no")


class Seat(FieldKind):
    partial = "chips"

    def fill(self, form: FormLike, spec: FieldSpec, bound: BoundField) -> None:
        bound.choices = seat_choices(form, bound.name)

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        value = read_seat(form, bound)
        return value is not None, value

    def text(self, spec: FieldSpec, value: Any, names: Mapping[int, str]) -> str:
        return who(names, value)


class Seats(FieldKind):
    partial = "checkboxes"

    def build(self, form: FormLike, spec: FieldSpec, name: str) -> BoundField:
        bound = super().build(form, spec, name)
        bound.value = ""
        bound.values = form.data.getlist(name)
        bound.choices = seat_choices(form, name, multiple=True)
        return bound

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        seats: list[int] = []
        for text in form.data.getlist(bound.name):
            if text == NO_SEAT:
                continue
            number = parse_int(text)
            if number is None or not 0 <= number < len(form.seats):
                form.fail(bound.name, choose_message(bound, among=True))
                return False, None
            if number not in seats:
                seats.append(number)
        return True, seats

    def put(self, data: MultiValueDict, spec: FieldSpec, name: str, value: Any) -> None:
        data.setlist(name, [str(v) for v in value] or [NO_SEAT])

    def text(self, spec: FieldSpec, value: Any, names: Mapping[int, str]) -> str:
        if isinstance(value, list) and value:
            return ", ".join(who(names, s) for s in value)
        return pgettext("no player", "none")


class OneOf(FieldKind):
    partial = "chips"

    def fill(self, form: FormLike, spec: FieldSpec, bound: BoundField) -> None:
        bound.choices = [Choice(str(c), humanize(c), bound.value == str(c)) for c in spec.choices]
        bound.extra["values"] = {str(c): c for c in spec.choices}

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        text = form.data.get(bound.name, "")
        if not text:
            if bound.required:
                form.fail(bound.name, choose_message(bound))
            return False, None
        values = bound.extra.get("values", {})
        if text in values:
            return True, values[text]
        form.fail(
            bound.name,
            gettext("Choose one of the %(what)s options.") % {"what": bound.label.lower()},
        )
        return False, None


class Numbers(FieldKind):
    """Several whole numbers of one field: per seat, per side, dice."""

    partial = "numbers"

    def keys(self, form: FormLike, spec: FieldSpec) -> list[tuple[str, str, dict[str, Any]]]:
        raise NotImplementedError

    def fill(self, form: FormLike, spec: FieldSpec, bound: BoundField) -> None:
        bound.value = ""
        bound.items = [
            BoundField(
                name=f"{bound.name}-{key}",
                label=label,
                kind="int",
                value=form.data.get(f"{bound.name}-{key}", ""),
                minimum=spec.minimum,
                maximum=spec.maximum,
                step=spec.step,
                extra=extra,
            )
            for key, label, extra in self.keys(form, spec)
        ]

    def blank(self, bound: BoundField) -> bool:
        """True when an empty box is missing (False: it counts as 0)."""
        return bound.required

    def numbers(self, form: FormLike, bound: BoundField) -> list[int] | None:
        numbers: list[int | None] = []
        missing: list[str] = []
        for item in bound.items:
            text = form.data.get(item.name, "")
            if not text.strip():
                if self.blank(bound):
                    missing.append(item.label)
                    item.extra["missing"] = True  # outlined beside the field's message
                    numbers.append(None)
                else:
                    numbers.append(0)
                continue
            number = parse_int(text)
            if number is None:
                form.fail(item.name, whole_number_message(item))
            numbers.append(number)
        if missing:
            form.fail(bound.name, self.missing_message(bound, missing))
        if missing or any(n is None for n in numbers):
            return None
        return [n for n in numbers if n is not None]

    def missing_message(self, bound: BoundField, missing: list[str]) -> str:
        if len(missing) == len(bound.items):
            return gettext("Enter the %(what)s.") % {"what": bound.label.lower()}
        return gettext("%(label)s: enter a number for %(names)s.") % {
            "label": bound.label,
            "names": ", ".join(missing),
        }

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        numbers = self.numbers(form, bound)
        return numbers is not None, numbers

    def put(self, data: MultiValueDict, spec: FieldSpec, name: str, value: Any) -> None:
        for index, item in enumerate(value):
            data[f"{name}-{index}"] = str(item)


class PerSeat(Numbers):
    def keys(self, form: FormLike, spec: FieldSpec) -> list[tuple[str, str, dict[str, Any]]]:
        return [(str(s.number), s.name, {"seat": s.number, "team": s.team}) for s in form.seats]

    def text(self, spec: FieldSpec, value: Any, names: Mapping[int, str]) -> str:
        if not isinstance(value, list):
            return str(value)
        return ", ".join(f"{who(names, seat)} {item}" for seat, item in enumerate(value))


class CountsThatSum(PerSeat):
    """Counts per seat that together make the spec's maximum (every trick of a deal)."""

    def fill(self, form: FormLike, spec: FieldSpec, bound: BoundField) -> None:
        super().fill(form, spec, bound)
        bound.extra["sum"] = spec.maximum

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        total = bound.extra.get("sum")
        counted = [parse_int(form.data.get(item.name, "")) for item in bound.items]
        given = sum(n for n in counted if n is not None)
        if total is not None and given > total:  # too many already: a box left empty is not it
            form.fail(
                bound.name,
                gettext("%(label)s add up to %(given)s, not %(total)s: check them.")
                % {"label": bound.label, "given": given, "total": total},
            )
            return False, None
        return super().read(form, bound)


class PerSide(Numbers):
    """One number per side; ``label`` says a side on the pad, ``side`` in a line of text
    (both given the side's key; by default the key itself)."""

    def __init__(self, label: Any = None, side: Callable[[str], str] | None = None):
        self.label = label or (lambda form, key: key)
        self.side = side or str

    def keys(self, form: FormLike, spec: FieldSpec) -> list[tuple[str, str, dict[str, Any]]]:
        return [(key, self.label(form, key), {"side": key}) for key in spec.keys]

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        numbers = self.numbers(form, bound)
        if numbers is None:
            return False, None
        return True, {item.extra["side"]: n for item, n in zip(bound.items, numbers, strict=True)}

    def put(self, data: MultiValueDict, spec: FieldSpec, name: str, value: Any) -> None:
        for key, item in value.items():
            data[f"{name}-{key}"] = str(item)

    def text(self, spec: FieldSpec, value: Any, names: Mapping[int, str]) -> str:
        if not isinstance(value, Mapping):
            return str(value)
        return ", ".join(f"{self.side(key)} {item}" for key, item in value.items())


class RestOfTotal(PerSide):
    """Points per side where one side left empty takes the rest of the total (the maximum).

    With a ``full`` field named (a side took every trick) and every box empty, that side
    gets the whole total, unless ``full_fills`` is off.
    """

    partial = "rest_of_total"

    def __init__(self, label: Any = None, full: str = "", full_fills: bool = True):
        super().__init__(label)
        self.full = full
        self.full_fills = full_fills

    def fill(self, form: FormLike, spec: FieldSpec, bound: BoundField) -> None:
        super().fill(form, spec, bound)
        bound.extra["total"] = spec.maximum

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        total = bound.maximum or 0
        values: dict[str, int | None] = {}
        for item in bound.items:
            text = form.data.get(item.name, "")
            if not text.strip():
                values[item.extra["side"]] = None
                continue
            number = parse_int(text)
            if number is None:
                form.fail(bound.name, whole_number_message(item))
                return False, None
            values[item.extra["side"]] = number
        blank = [key for key, value in values.items() if value is None]
        full = form.data.get(self.full, "") if self.full else ""
        if len(blank) == len(values) and full in values and self.full_fills:
            return True, {key: total if key == full else 0 for key in values}
        if len(blank) == 1:
            values[blank[0]] = total - sum(v for v in values.values() if v is not None)
        elif blank:
            needed = len(values) - 1
            form.fail(
                bound.name,
                (
                    gettext(
                        "Enter the points won by one side; the rest of %(total)s goes to the other."
                    )
                    if needed == 1
                    else gettext(
                        "Enter the points won by %(count)s of the sides; the rest of %(total)s "
                        "goes to the other."
                    )
                )
                % {"count": needed, "total": total},
            )
            return False, None
        return True, {key: value for key, value in values.items() if value is not None}


class Dice(Numbers):
    partial = "dice"

    def keys(self, form: FormLike, spec: FieldSpec) -> list[tuple[str, str, dict[str, Any]]]:
        count = spec.count or 1
        return [
            (
                str(index),
                gettext("Die") if count == 1 else gettext("Die %(number)s") % {"number": index + 1},
                {},
            )
            for index in range(count)
        ]

    def fill(self, form: FormLike, spec: FieldSpec, bound: BoundField) -> None:
        super().fill(form, spec, bound)
        low = spec.minimum if spec.minimum is not None else 1
        high = spec.maximum if spec.maximum is not None else low
        for item in bound.items:
            item.choices = [
                Choice(str(n), str(n), item.value == str(n)) for n in range(low, high + 1)
            ]

    def blank(self, bound: BoundField) -> bool:
        return True

    def missing_message(self, bound: BoundField, missing: list[str]) -> str:
        return gettext("Tap the dice that were rolled.")

    def text(self, spec: FieldSpec, value: Any, names: Mapping[int, str]) -> str:
        if not isinstance(value, list):
            return str(value)
        return " + ".join(str(item) for item in value)


class Penalties(FieldKind):
    partial = "penalties"

    def fill(self, form: FormLike, spec: FieldSpec, bound: BoundField) -> None:
        bound.value = ""
        default = "" if form.penalty_points is None else str(form.penalty_points)
        rows: list[BoundField] = []
        for index in range(MAX_PENALTY_ROWS):
            prefix = f"{bound.name}-{index}"
            player = form.data.get(f"{prefix}-player", "")
            points = form.data.get(f"{prefix}-points", "")
            reason = form.data.get(f"{prefix}-reason", "")
            filled = bool(player or reason or (points and points != default))
            if index and not filled and any(not r.extra["filled"] for r in rows):
                break
            if not form.bound and not points and form.penalty_points is not None:
                points = default
            row = BoundField(
                name=prefix,
                label=gettext("Penalty %(number)s") % {"number": index + 1},
                kind="penalty",
                extra={"filled": filled, "number": index + 1},
            )
            row.items = [
                BoundField(
                    name=f"{prefix}-player",
                    label=gettext("Player"),
                    kind="seat",
                    value=player,
                    choices=[
                        Choice(str(s.number), s.name, player == str(s.number)) for s in form.seats
                    ],
                ),
                BoundField(
                    name=f"{prefix}-points",
                    label=gettext("Points"),
                    kind="int",
                    value=points,
                    minimum=spec.minimum,
                    maximum=spec.maximum,
                ),
                BoundField(
                    name=f"{prefix}-reason", label=gettext("Reason"), kind="text", value=reason
                ),
            ]
            rows.append(row)
        bound.items = rows

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        found: list[dict[str, Any]] = []
        default = "" if form.penalty_points is None else str(form.penalty_points)
        for row in bound.items:
            player_field, points_field, reason_field = row.items
            player_text = form.data.get(player_field.name, "")
            reason = form.data.get(reason_field.name, "").strip()
            points_text = form.data.get(points_field.name, "").strip()
            if not player_text or player_text == NO_SEAT:
                # A penalty with points or a reason but nobody to take it off is refused,
                # never dropped; the points a form fills in by itself count for nothing.
                if reason or (points_text and points_text != default):
                    form.fail(
                        player_field.name,
                        gettext("%(label)s: choose the player who is penalised.")
                        % {"label": row.label},
                    )
                continue
            seat = read_seat(form, player_field, required=True)
            points = read_int(form, points_field, required=True)
            if points is not None and points < 0:
                form.fail(points_field.name, gettext("Penalty points cannot be negative."))
                continue
            if seat is None or points is None:
                continue
            item: dict[str, Any] = {"player": seat, "points": points}
            if reason:
                item["reason"] = reason[:200]
            found.append(item)
        return bool(found), found

    def put(self, data: MultiValueDict, spec: FieldSpec, name: str, value: Any) -> None:
        for index, item in enumerate(value[:MAX_PENALTY_ROWS]):
            data[f"{name}-{index}-player"] = str(item.get("player", ""))
            data[f"{name}-{index}-points"] = str(item.get("points", ""))
            data[f"{name}-{index}-reason"] = str(item.get("reason", ""))

    def text(self, spec: FieldSpec, value: Any, names: Mapping[int, str]) -> str:
        if not isinstance(value, list):
            return ""
        parts = []
        for item in value:
            if isinstance(item, Mapping):
                reason = f" ({item['reason']})" if item.get("reason") else ""
                parts.append(
                    f"{who(names, item.get('player'))} \N{MINUS SIGN}{item.get('points')}{reason}"
                )
        return ", ".join(parts)


class Parts(FieldKind):
    """A structured input: each part is a field of its own kind."""

    partial = "parts"

    def build(self, form: FormLike, spec: FieldSpec, name: str) -> BoundField:
        bound = super().build(form, spec, name)
        bound.items = [
            form.kind_of(part).build(form, part, f"{name}.{part.name}") for part in spec.parts
        ]
        bound.extra["specs"] = {part.name: part for part in spec.parts}
        return bound

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        parts: dict[str, Any] = {}
        specs = bound.extra["specs"]
        for item in bound.items:
            key = item.name.rsplit(".", 1)[-1]
            present, value = form.kind_of(specs[key]).read(form, item)
            if present:
                parts[key] = value
        return bool(parts), parts

    def put(self, data: MultiValueDict, spec: FieldSpec, name: str, value: Any) -> None:
        if not isinstance(value, Mapping):
            return
        parts = {part.name: part for part in spec.parts}
        for key, item in value.items():
            if key in parts and item is not None:
                KINDS[parts[key].kind].put(data, parts[key], f"{name}.{key}", item)

    def text(self, spec: FieldSpec, value: Any, names: Mapping[int, str]) -> str:
        if not isinstance(value, Mapping):
            return str(value)
        by_name = {part.name: part for part in spec.parts}
        parts = []
        for key, item in value.items():
            part = by_name.get(key)
            if part is None:
                continue
            text = input_text(KINDS[part.kind], part, item, names)
            label = words(part.label).lower()
            parts.append(f"{label} {text}" if part.kind != "bool" else label)
        return "; ".join(parts)


class ClaimedSections(Parts):
    """Sections of a board, each claimed by at most one seat (or left unclaimed)."""

    partial = "sections"

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        claims: dict[str, int] = {}
        for item in bound.items:
            seat = read_seat(form, item, required=False)
            if seat is not None:
                claims[item.name.rsplit(".", 1)[-1]] = seat
        return bool(claims), claims


# The handler of each engine field kind; a kit may name another handler for one field.
KINDS: dict[str, FieldKind] = {
    "int": Number(),
    "bool": Flag(),
    "seat": Seat(),
    "seats": Seats(),
    "choice": OneOf(),
    "per_seat": PerSeat(),
    "per_side": PerSide(),
    "dice": Dice(),
    "penalties": Penalties(),
    "object": Parts(),
}


def input_text(kind: FieldKind, spec: FieldSpec, value: Any, names: Mapping[int, str]) -> str:
    """One input as a person reads it ("Ann", "190, 110", "Ben minus 50 (revoke)")."""
    if value is None:
        return pgettext("no player", "none") if spec.kind == "seat" else ""
    return kind.text(spec, value, names)
