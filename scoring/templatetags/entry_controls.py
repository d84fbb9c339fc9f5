"""The repeated controls of the round forms, drawn in Python.

A round form repeats a few small controls many times: a chip per player, a button per
bid on the ladder, one per points offset, one per pad number, an option per player.
Drawn by the template language, or by ``format_html`` with its lazy-aware escaping,
each costs dozens of calls; together they were most of a saved round's drawing. These
tags write the same markup with plain string formatting, every value escaped as the
template language escapes it (``_text``). ``tests/web/test_entry_controls.py`` holds the
markup to what the template language drew.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst

register = template.Library()


def _text(value: Any) -> str:
    """``value`` as the template language writes it: safe strings as they are, the rest
    escaped (``django.utils.html.conditional_escape`` without its lazy-string wrapper)."""
    if type(value) is int:  # exactly an int (not a bool, not a subclass): plain digits
        return str(value)
    if hasattr(value, "__html__"):
        return str(value.__html__())
    return html.escape(str(value))


@register.simple_tag
def chip_inputs(field: Any, kind: str = "") -> SafeString:
    """One chip (a radio or a checkbox with its label) per choice of ``field``."""
    kind, name = _text(kind or "radio"), _text(field.name)
    chips = []
    for choice in field.choices:
        disabled = choice.disabled
        chips.append(
            f'\n    <label class="chip{" is-disabled" if disabled else ""}'
            f'{" chip-full" if choice.value == "none" else ""}">\n'
            f'      <input type="{kind}" name="{name}" value="{_text(choice.value)}"'
            f"{' checked' if choice.selected else ''}{' disabled' if disabled else ''}>\n"
            f'      <span><b class="chip-label">{_text(choice.label)}</b>'
            f"{f' <small>{_text(choice.note)}</small>' if choice.note else ''}</span>\n"
            "    </label>\n    "
        )
    return mark_safe("".join(chips))


@register.simple_tag
def quick_picks(field: Any) -> SafeString:
    """The bid ladder's buttons: one per quick value, pressed when it is the value."""
    name, chosen = _text(field.name), field.value
    buttons = []
    for value in field.extra.get("quick", ()):
        text = _text(value)
        pressed = "true" if chosen == str(value) else "false"
        buttons.append(
            f'<button type="button" class="quick-pick" data-set="{name}" data-value="{text}" '
            f'aria-pressed="{pressed}">{text}</button>'
        )
    return mark_safe("".join(buttons))


@register.simple_tag
def offset_buttons(offsets: Iterable[dict[str, Any]]) -> SafeString:
    """The points pad's buttons, one per offset from the bid (``value`` and ``label``)."""
    return mark_safe(
        "".join(
            f'<button type="button" data-points-offset="{_text(offset["value"])}" disabled>'
            f"<span data-points-value>{_text(offset['label'])}</span></button>"
            for offset in offsets
        )
    )


@register.simple_tag
def pad_buttons(values: Iterable[Any]) -> SafeString:
    """A number pad's buttons, one per value."""
    return mark_safe(
        "".join(
            f'<button type="button" data-pad-value="{_text(v)}" aria-pressed="false">'
            f"{_text(v)}</button>"
            for v in values
        )
    )


@register.simple_tag
def seat_options(choices: Iterable[Any]) -> SafeString:
    """A select's options, one per choice, the chosen one selected."""
    return mark_safe(
        "".join(
            f'<option value="{_text(c.value)}"{" selected" if c.selected else ""}>'
            f"{_text(c.label)}</option>"
            for c in choices
        )
    )


@register.simple_tag
def field_errors(field: Any) -> SafeString:
    """A field's messages under it (nothing when it has none), named by the field for its
    input's ``aria-describedby``."""
    errors = getattr(field, "errors", None)
    if not errors:
        return mark_safe("")
    messages = "".join(f'<p class="error">{_text(capfirst(m))}</p>' for m in errors)
    return mark_safe(f'<div class="field-errors" id="e-{_text(field.name)}">{messages}</div>')


@register.simple_tag
def delta_chips(cells: Iterable[Any], trend: bool = False) -> SafeString:
    """A round's change per player or side, one chip each; with ``trend``, marked up or
    down by its sign."""
    chips = []
    for cell in cells:
        mark = ""
        if trend:
            mark = " up" if cell.delta > 0 else " down" if cell.delta < 0 else ""
        chips.append(
            f'<span class="delta-chip{mark}">{_text(cell.title)} {_text(cell.signed)}</span>'
        )
    return mark_safe("".join(chips))
