"""The round forms' repeated controls and the table page's repeated parts, drawn in
Python, are the markup the template language drew for them; a table's URLs put together
from one reversal are the URLs ``reverse`` gives.

The reference for each tag is the loop it replaced, kept here as template text and drawn
by the template engine with the same values: any text (markup characters, quotes,
accents), any flags.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.template import Context, Template
from django.urls import NoReverseMatch, reverse, set_script_prefix
from django.utils.safestring import mark_safe
from hypothesis import given
from hypothesis import strategies as st

from scoring.entry.fields import BoundField, Choice
from scoring.templatetags.table_parts import LONG_WORD, has_long_word
from scoring.web.phone import TableUrls, optional_table_url, table_url

LOAD = "{% load entry_controls table_parts %}"

CHIPS_BEFORE = """{% for choice in field.choices %}
    <label class="chip{% if choice.disabled %} is-disabled{% endif %}{% if choice.value == "none" %} chip-full{% endif %}">
      <input type="{{ type|default:'radio' }}" name="{{ field.name }}" value="{{ choice.value }}"{% if choice.selected %} checked{% endif %}{% if choice.disabled %} disabled{% endif %}>
      <span><b class="chip-label">{{ choice.label }}</b>{% if choice.note %} <small>{{ choice.note }}</small>{% endif %}</span>
    </label>
    {% endfor %}"""  # noqa: E501

LADDER_BEFORE = """{% for value in field.extra.quick %}<button type="button" class="quick-pick" data-set="{{ field.name }}" data-value="{{ value }}" aria-pressed="{% if field.value == value|stringformat:'d' %}true{% else %}false{% endif %}">{{ value }}</button>{% endfor %}"""  # noqa: E501

OFFSETS_BEFORE = """{% for offset in offsets %}<button type="button" data-points-offset="{{ offset.value }}" disabled><span data-points-value>{{ offset.label }}</span></button>{% endfor %}"""  # noqa: E501

PAD_BEFORE = """{% for value in values %}<button type="button" data-pad-value="{{ value }}" aria-pressed="false">{{ value }}</button>{% endfor %}"""  # noqa: E501

OPTIONS_BEFORE = """{% for choice in choices %}<option value="{{ choice.value }}"{% if choice.selected %} selected{% endif %}>{{ choice.label }}</option>{% endfor %}"""  # noqa: E501

ERRORS_BEFORE = """{% if field.errors %}<div class="field-errors" id="e-{{ field.name }}">{% for message in field.errors %}<p class="error">{{ message|capfirst }}</p>{% endfor %}</div>{% endif %}"""  # noqa: E501

DELTAS_BEFORE = """{% for cell in cells %}<span class="delta-chip">{{ cell.title }} {{ cell.signed }}</span>{% endfor %}"""  # noqa: E501

TREND_BEFORE = """{% for cell in cells %}<span class="delta-chip{% if cell.delta > 0 %} up{% elif cell.delta < 0 %} down{% endif %}">{{ cell.title }} {{ cell.signed }}</span>{% endfor %}"""  # noqa: E501


CHIP_FIELD_BEFORE = """<fieldset class="field{% if field.errors %} has-error{% endif %}" data-field="{{ field.name }}"{% if field.errors %} aria-describedby="e-{{ field.name }}"{% endif %}>
<legend>{{ legend|default:field.label }}</legend>
<div class="chips{% if wide %} chips-wide{% endif %}{% if dense %} chips-dense{% endif %}">{% chip_inputs field type %}</div>
{% if help %}<p class="help">{{ help }}</p>{% endif %}{% field_errors field %}
</fieldset>"""  # noqa: E501

PENALTIES_BEFORE = """{% for row in field.items %}<fieldset class="penalty-row">
<legend class="visually-hidden">{{ row.label }}</legend>
{% with player=row.items.0 points=row.items.1 reason=row.items.2 %}<div class="penalty-grid">
<div>
<label for="f-{{ player.name }}">Player</label>
<select id="f-{{ player.name }}" name="{{ player.name }}"><option value="">Nobody</option>{% seat_options player.choices %}</select>
</div>
<div>
<label for="f-{{ points.name }}">Points</label>
<input type="number" id="f-{{ points.name }}" name="{{ points.name }}" value="{{ points.value }}" inputmode="numeric" min="0" step="1">
</div>
</div>
<label for="f-{{ reason.name }}">Reason <span class="muted">(optional)</span></label>
<input type="text" id="f-{{ reason.name }}" name="{{ reason.name }}" value="{{ reason.value }}" maxlength="200" placeholder="Revoke, reneged ..." autocomplete="off">{% for item in row.items %}{% field_errors item %}{% endfor %}{% endwith %}
</fieldset>
{% endfor %}"""  # noqa: E501

WON_BEFORE = """{% for item in field.items %}<div class="won-side" data-side="{{ item.extra.side }}">
<label for="f-{{ item.name }}"><span class="side-name">{{ item.label }}</span>{% if item.extra.members %} <small class="side-members">{{ item.extra.members }}</small>{% endif %}</label>
<input type="number" id="f-{{ item.name }}" name="{{ item.name }}" value="{{ item.value }}" inputmode="numeric" pattern="[0-9]*"{% if item.minimum is not None %} min="{{ item.minimum }}"{% endif %}{% if item.maximum is not None %} max="{{ item.maximum }}"{% endif %} step="{{ item.step }}" data-points-input>
</div>
{% endfor %}"""  # noqa: E501

STANDINGS_BEFORE = """{% for standing in standings %}<div class="standing{% if standing.leader %} is-leader{% endif %}{% if standing.winner %} is-winner{% endif %}{% if standing.out %} is-out{% endif %}{% if standing|has_long_word %} long-name{% endif %}" data-group="{{ standing.group.key }}">
<div class="who">
{% if standing.group.seats|length > 1 %}<span class="group-title">{{ standing.group.title }}</span>
<span class="members">{% for person in standing.people %}<span class="person">{{ person.name }}{% for mark in person.markers %} <span class="marker marker-{{ mark }}">{{ mark }}</span>{% endfor %}</span>{% endfor %}</span>{% else %}{% with person=standing.people.0 %}<span class="group-title">{{ person.name }}</span>{% if person.markers %}
<span class="members">{% for mark in person.markers %}<span class="marker marker-{{ mark }}">{{ mark }}</span> {% endfor %}</span>{% endif %}{% endwith %}{% endif %}
</div>
<div class="total" data-total>{{ standing.total_text }}{% if standing.last is not None %}<span class="last {% if standing.last > 0 %}up{% elif standing.last < 0 %}down{% endif %}" title="last {{ word|lower }}">{{ standing.last_signed }}</span>{% endif %}</div>
</div>
{% endfor %}"""  # noqa: E501

RECENT_BEFORE = """{% for row in rows reversed %}<li class="round-item{% if row.pending %} is-pending{% endif %}" value="{{ row.number }}">
<p class="round-line"><strong>{{ word }} {{ row.number }}</strong>{% if row.dealer %} <span class="muted">· {{ row.dealer }} dealt</span>{% endif %}{% if row.pending %} <span class="badge warn">pending</span>{% endif %}{% if row.corrected %} <span class="badge">corrected</span>{% endif %}</p>
<p class="summary">{{ row.summary }}</p>
<p class="deltas">{% delta_chips row.cells trend=True %}</p>
</li>
{% endfor %}"""  # noqa: E501


ENTRY_HEAD_BEFORE = """<input type="hidden" name="number" value="{{ number }}">
{% if key %}<input type="hidden" name="key" value="{{ key }}">
{% endif %}{% if revision is not None %}<input type="hidden" name="revision" value="{{ revision }}">
{% endif %}<header class="entry-head">
<h2>{% if correcting %}Correct {{ word|lower }} {{ number }}{% else %}{{ word }} {{ number }}{% endif %}</h2>
{% if game.table_token %}<a class="rules-link" href="{% url 'scoring:table_rules' game.table_token %}" data-rules>Rules</a>
{% endif %}{% if heading %}<p class="muted">{{ heading }}</p>
{% endif %}</header>"""  # noqa: E501

STALE_BEFORE = """<div class="stale notice warn" hidden data-stale role="status">
{% if correcting %}<p>{{ word|lower|capfirst }} {{ number }} changed since you opened it. What you typed is kept; saving it will show you what is there now.</p>
{% else %}<p>Another phone has just recorded a {{ word|lower }}. What you typed is kept; saving it will show you what the other phone recorded.</p>
{% endif %}{% if fresh_url %}<button type="button" class="button" hx-get="{{ fresh_url }}" hx-target="{{ target }}" hx-swap="outerHTML" hx-disabled-elt="this">Discard mine and start over</button>
{% endif %}</div>"""  # noqa: E501

ACTIONS_BEFORE = """<div class="actions">
<p class="notice error send-error" data-send-error hidden role="alert"></p>
{% if form.has_errors %}<p class="notice error first-problem" data-first-problem role="alert"><strong>Not saved:</strong> {{ form.messages.0|capfirst }}{% if form.error_count > 1 %} <span class="more">({{ form.error_count|add:"-1" }} more marked)</span>{% endif %}</p>
{% endif %}<div id="preview" class="preview" aria-live="polite" hx-post="{{ post_url }}" hx-trigger="change from:closest form delay:250ms, input from:closest form delay:700ms" hx-vals='{"action": "preview"}' hx-target="this" hx-swap="innerHTML" hx-sync="this:replace" hx-disabled-elt="unset">
{% if not form.has_errors %}<p class="muted small">The scores show here before you save.</p>
{% endif %}</div>
<div class="action-buttons">
{% if not conflict %}<button type="submit" name="action" value="save" class="primary save"{% if correcting and closed %}{% elif correcting %} data-saving="Saving the correction"{% else %} data-saving="Saving {{ word|lower }} {{ number }}"{% endif %}>{% if correcting and closed %}Ask the desk to make it{% elif correcting %}Save the correction{% else %}Save {{ word|lower }} {{ number }}{% endif %}</button>
{% endif %}{% if form.has_misdeal %}<button type="button" class="misdeal" hx-post="{{ post_url }}" hx-vals='{"action": "misdeal"}' hx-target="{{ target }}" hx-swap="outerHTML" hx-disabled-elt="this, previous .save" hx-confirm="Record a misdeal? Nobody scores and the same dealer deals again.">Misdeal</button>
{% endif %}</div>
</div>"""  # noqa: E501


def drawn(source: str, **values: Any) -> str:
    return Template(LOAD + source).render(Context(values))


# Text as players and kits write it, with everything HTML would read as markup.
texts = st.text(
    alphabet=st.sampled_from(list("Ann Bø<>&\"'é-1 ")) | st.characters(codec="utf-8"),
    max_size=12,
)
choices = st.builds(
    Choice,
    value=st.one_of(texts, st.just("none"), st.just("")),
    label=texts,
    selected=st.booleans(),
    disabled=st.booleans(),
    note=st.one_of(st.just(""), texts),
)


def field_with(**kwargs: Any) -> BoundField:
    return BoundField(name=kwargs.pop("name", "bidder"), label="Field", kind="seat", **kwargs)


@given(name=texts, options=st.lists(choices, max_size=7), kind=st.sampled_from(["", "checkbox"]))
def test_chips_are_the_loops_markup(name: str, options: list[Choice], kind: str) -> None:
    field = field_with(name=name, choices=options)
    assert drawn("{% chip_inputs field type %}", field=field, type=kind) == drawn(
        CHIPS_BEFORE, field=field, type=kind
    )


def test_a_safe_label_is_written_as_it_is() -> None:
    field = field_with(choices=[Choice("1", mark_safe("<b>Ann</b>"))])
    assert drawn("{% chip_inputs field %}", field=field) == drawn(CHIPS_BEFORE, field=field)
    assert "<b>Ann</b>" in drawn("{% chip_inputs field %}", field=field)


@given(
    quick=st.lists(st.integers(-50, 400), max_size=30),
    value=st.one_of(st.just(""), st.integers(-50, 400).map(str), texts),
)
def test_the_ladder_is_the_loops_markup(quick: list[int], value: str) -> None:
    field = field_with(name="bid", value=value, extra={"quick": quick})
    assert drawn("{% quick_picks field %}", field=field) == drawn(LADDER_BEFORE, field=field)


def test_the_ladder_presses_the_chosen_bid() -> None:
    field = field_with(name="bid", value="175", extra={"quick": [170, 175, 180]})
    assert drawn("{% quick_picks field %}", field=field).count('aria-pressed="true"') == 1


@given(
    offsets=st.lists(
        st.fixed_dictionaries({"value": st.integers(-40, 40), "label": texts}), max_size=12
    )
)
def test_the_points_pad_is_the_loops_markup(offsets: list[dict[str, Any]]) -> None:
    assert drawn("{% offset_buttons offsets %}", offsets=offsets) == drawn(
        OFFSETS_BEFORE, offsets=offsets
    )


@given(values=st.lists(st.one_of(st.integers(0, 30), texts), max_size=20))
def test_the_number_pad_is_the_loops_markup(values: list[Any]) -> None:
    assert drawn("{% pad_buttons values %}", values=values) == drawn(PAD_BEFORE, values=values)


@given(options=st.lists(choices, max_size=9))
def test_the_options_are_the_loops_markup(options: list[Choice]) -> None:
    assert drawn("{% seat_options choices %}", choices=options) == drawn(
        OPTIONS_BEFORE, choices=options
    )


@given(name=texts, errors=st.lists(texts, max_size=3))
def test_the_errors_are_the_partials_markup(name: str, errors: list[str]) -> None:
    field = field_with(name=name, errors=errors)
    assert drawn("{% field_errors field %}", field=field) == drawn(ERRORS_BEFORE, field=field)


def test_a_field_the_form_lacks_has_no_errors() -> None:
    assert drawn("{% field_errors missing %}") == ""


@dataclass
class Cell:
    title: str
    signed: str
    delta: int


cells = st.lists(st.builds(Cell, title=texts, signed=texts, delta=st.integers(-300, 300)))


@given(row=cells)
def test_delta_chips_are_the_loops_markup(row: list[Cell]) -> None:
    assert drawn("{% delta_chips cells %}", cells=row) == drawn(DELTAS_BEFORE, cells=row)
    assert drawn("{% delta_chips cells trend=True %}", cells=row) == drawn(TREND_BEFORE, cells=row)


# --------------------------------------------------------------------------- whole fields


@given(
    name=texts,
    options=st.lists(choices, max_size=5),
    errors=st.lists(texts, max_size=2),
    legend=texts,
    kind=st.sampled_from(["", "checkbox"]),
    wide=st.booleans(),
    dense=st.booleans(),
    help_text=texts,
)
def test_a_chip_field_is_the_partials_markup(
    name, options, errors, legend, kind, wide, dense, help_text
) -> None:
    field = field_with(name=name, choices=options, errors=errors)
    values = {"field": field, "legend": legend, "type": kind, "wide": wide, "dense": dense}
    values["help"] = help_text
    assert drawn("{% chip_fieldset field %}", **values) == drawn(CHIP_FIELD_BEFORE, **values)


def test_a_chip_field_without_a_legend_is_named_by_its_label() -> None:
    field = field_with(choices=[Choice("1", "Ann")])
    assert "<legend>Field</legend>" in drawn("{% chip_fieldset field %}", field=field)
    assert drawn("{% chip_fieldset field %}", field=field) == drawn(CHIP_FIELD_BEFORE, field=field)


values_typed = st.one_of(texts, st.integers(-5, 500).map(str), st.just(""))
limits = st.one_of(st.none(), st.integers(-100, 400))


def penalty_row(index: int, label: str, seats: list[Choice], points: str, reason: str):
    return BoundField(
        name=f"penalties.{index}",
        label=label,
        kind="row",
        items=[
            BoundField(name=f"penalties.{index}.player", label="P", kind="seat", choices=seats),
            BoundField(name=f"penalties.{index}.points", label="Q", kind="int", value=points),
            BoundField(name=f"penalties.{index}.reason", label="R", kind="text", value=reason),
        ],
    )


@given(
    rows=st.lists(
        st.tuples(texts, st.lists(choices, max_size=4), values_typed, texts, st.lists(texts)),
        max_size=3,
    )
)
def test_penalty_rows_are_the_loops_markup(rows) -> None:
    field = BoundField(
        name="penalties",
        label="Penalties",
        kind="rows",
        items=[penalty_row(i, *row[:4]) for i, row in enumerate(rows)],
    )
    for row_field, row in zip(field.items, rows, strict=True):
        row_field.items[1].errors = row[4]  # a message under the points box
    assert drawn("{% penalty_rows field %}", field=field) == drawn(PENALTIES_BEFORE, field=field)


@given(
    sides=st.lists(
        st.tuples(texts, texts, values_typed, limits, limits, st.integers(1, 10), texts),
        max_size=3,
    ),
    with_side=st.booleans(),
)
def test_won_sides_are_the_loops_markup(sides, with_side) -> None:
    items = [
        BoundField(
            name=f"won-{side}",
            label=label,
            kind="int",
            value=value,
            minimum=low,
            maximum=high,
            step=step,
            extra={"side": side, "members": members} if with_side else {},
        )
        for side, label, value, low, high, step, members in sides
    ]
    field = BoundField(name="won", label="Won", kind="sides", items=items)
    assert drawn("{% won_sides field %}", field=field) == drawn(WON_BEFORE, field=field)


# --------------------------------------------------------------------------- table parts


@dataclass
class Group:
    key: str
    title: str
    seats: list[int]


@dataclass
class Person:
    name: str
    markers: list[str]


@dataclass
class Standing:
    group: Group
    people: list[Person]
    total_text: str
    last: int | None
    last_signed: str
    leader: bool
    winner: bool
    out: bool


people = st.lists(st.builds(Person, name=texts, markers=st.lists(texts, max_size=2)), min_size=1)


@st.composite
def standings(draw):
    crowd = draw(people)  # one player, or a team of several
    return Standing(
        group=Group(draw(texts), draw(texts), list(range(len(crowd)))),
        people=crowd,
        total_text=draw(texts),
        last=draw(st.one_of(st.none(), st.integers(-50, 50))),
        last_signed=draw(texts),
        leader=draw(st.booleans()),
        winner=draw(st.booleans()),
        out=draw(st.booleans()),
    )


@given(board=st.lists(standings(), max_size=6), word=texts)
def test_the_standings_are_the_loops_markup(board, word) -> None:
    assert drawn("{% standing_cards board word %}", board=board, word=word) == drawn(
        STANDINGS_BEFORE, standings=board, word=word
    )


short_words = st.text(alphabet=st.sampled_from(list("Annbøé")), min_size=1, max_size=LONG_WORD)


def alone(name: str) -> Standing:
    return Standing(Group("p0", name, [0]), [Person(name, [])], "0", None, "", False, False, False)


@given(words=st.lists(short_words, min_size=1, max_size=5), joins=st.sampled_from([" ", "-"]))
def test_a_name_of_short_words_keeps_its_total_beside_it(words, joins) -> None:
    """A hyphen stays on the line of the word before it, so it counts with that word."""
    if joins == "-":
        words = [word[: LONG_WORD - 1] for word in words]
    assert not has_long_word(alone(joins.join(words)))


@given(words=st.lists(short_words, max_size=4), long=st.text("Annbøé", min_size=LONG_WORD + 1))
def test_one_long_word_anywhere_in_a_name_or_a_team_puts_the_total_under_it(words, long) -> None:
    name = " ".join([*words, long])
    assert has_long_word(alone(name))
    team = Standing(
        Group("A", "Team A", [0, 1]),
        [Person("Ann", []), Person(name, [])],
        "0",
        None,
        "",
        False,
        False,
        False,
    )
    assert has_long_word(team)
    assert "long-name" in drawn("{% standing_cards board word %}", board=[team], word="Deal")


def test_a_hyphen_breaks_a_name_where_a_space_does() -> None:
    assert not has_long_word(alone("Ann Barthol-Fitzgera"))
    assert has_long_word(alone("Ann Bartholom-Fitz"))  # ten, with its hyphen
    assert has_long_word(alone("Maximiliana Smyth"))


@dataclass
class Row:
    number: int
    dealer: str
    pending: bool
    corrected: bool
    summary: str
    cells: list[Cell]


@given(
    rows=st.lists(
        st.builds(
            Row,
            number=st.integers(1, 500),
            dealer=st.one_of(st.just(""), texts),
            pending=st.booleans(),
            corrected=st.booleans(),
            summary=texts,
            cells=cells,
        ),
        max_size=4,
    ),
    word=texts,
)
def test_the_last_rounds_are_the_loops_markup(rows, word) -> None:
    assert drawn("{% recent_items rows word %}", rows=rows, word=word) == drawn(
        RECENT_BEFORE, rows=rows, word=word
    )


TABLE_PAGES = ["table", "table_live", "table_entry", "table_seat", "table_end", "round_undo"]
TABLE_PAGES += ["history", "rematch", "table_rules"]

tokens = st.text(alphabet=st.sampled_from(list("abcXYZ019-_")), min_size=16, max_size=64)


@given(token=tokens, name=st.sampled_from(TABLE_PAGES))
def test_a_tables_url_is_the_reversed_one(token: str, name: str) -> None:
    assert table_url(f"scoring:{name}", token) == reverse(f"scoring:{name}", args=[token])
    assert TableUrls(token)[name] == reverse(f"scoring:{name}", args=[token])


def test_a_token_reversing_would_quote_is_reversed() -> None:
    token = "ßpiel" + "a" * 16  # matches the pattern; not plain base64
    assert table_url("scoring:history", token) == reverse("scoring:history", args=[token])
    assert "%C3%9F" in table_url("scoring:history", token)


def test_the_script_prefix_is_followed() -> None:
    token = "a" * 22
    try:
        set_script_prefix("/club/")
        assert table_url("scoring:history", token) == f"/club/t/{token}/history/"
    finally:
        set_script_prefix("/")
    assert table_url("scoring:history", token) == f"/t/{token}/history/"


def test_an_unknown_page_is_refused_or_left_out() -> None:
    with pytest.raises(NoReverseMatch):
        TableUrls("a" * 22)["no_such_page"]
    assert optional_table_url("scoring:no_such_page", "a" * 22) == ""


# --------------------------------------------------------------------------- the form's frame


@dataclass
class TableGame:
    table_token: str


@dataclass
class FormState:
    messages: list[str]
    has_misdeal: bool

    @property
    def has_errors(self) -> bool:
        return bool(self.messages)

    @property
    def error_count(self) -> int:
        return len(self.messages)


numbers = st.one_of(st.integers(1, 600), texts)


@given(
    number=numbers,
    key=st.one_of(st.just(""), st.none(), texts),
    revision=st.one_of(st.none(), st.integers(0, 99)),
    word=texts,
    correcting=st.booleans(),
    token=st.one_of(st.just(""), tokens),
    heading=st.one_of(st.just(""), texts),
)
def test_the_forms_head_is_the_templates_markup(
    number, key, revision, word, correcting, token, heading
) -> None:
    values = {"number": number, "key": key, "revision": revision, "word": word}
    values |= {"correcting": correcting, "game": TableGame(token), "heading": heading}
    assert drawn("{% entry_head %}", **values) == drawn(ENTRY_HEAD_BEFORE, **values)


def test_a_form_told_nothing_has_a_head_with_its_number_only() -> None:
    assert drawn("{% entry_head %}", number=3) == drawn(ENTRY_HEAD_BEFORE, number=3)


@given(word=texts, fresh_url=st.one_of(st.just(""), texts), target=texts)
def test_the_stale_notice_is_the_templates_markup(word, fresh_url, target) -> None:
    values = {"word": word, "fresh_url": fresh_url, "target": target}
    assert drawn("{% stale_notice %}", **values) == drawn(STALE_BEFORE, **values)


@given(
    messages=st.lists(texts, max_size=3),
    misdeal=st.booleans(),
    post_url=texts,
    target=texts,
    word=texts,
    number=numbers,
    conflict=st.booleans(),
    correcting=st.booleans(),
    closed=st.booleans(),
)
def test_the_save_bar_is_the_templates_markup(
    messages, misdeal, post_url, target, word, number, conflict, correcting, closed
) -> None:
    values = {"form": FormState(messages, misdeal), "post_url": post_url, "target": target}
    values |= {"word": word, "number": number, "conflict": conflict}
    values |= {"correcting": correcting, "closed": closed}
    assert drawn("{% entry_actions %}", **values) == drawn(ACTIONS_BEFORE, **values)
