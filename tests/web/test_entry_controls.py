"""The round forms' repeated controls, drawn in Python, are the markup the template
language drew for them; a table's URLs put together from one reversal are the URLs
``reverse`` gives.

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
from scoring.web.phone import TableUrls, optional_table_url, table_url

LOAD = "{% load entry_controls %}"

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
