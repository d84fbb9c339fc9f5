"""The repeated controls of the round forms, and the frame around them, drawn in Python.

A round form repeats a few small controls many times: a chip per player, a button per
bid on the ladder, one per points offset, one per pad number, an option per player;
whole fields of them (chips, penalty rows, the points boxes); and every form has the same
frame (hidden fields and heading, the stale notice, the Save bar). Drawn by the template
language, or by ``format_html`` with its lazy-aware escaping, each costs dozens of calls;
together they were most of a saved round's drawing. These tags write the same markup with
plain string formatting, every value escaped as the template language escapes it
(``escaped``). ``tests/web/test_entry_controls.py`` holds the markup to what the template
language drew.
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Iterable
from typing import Any

from django import template
from django.core.cache import caches
from django.template import Context, Engine
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext, gettext_noop, ngettext

from scoring.entry.fields import ROUND_WORDS, said_word

register = template.Library()


def escaped(value: Any) -> str:
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
    kind, name = escaped(kind or "radio"), escaped(field.name)
    chips = []
    for choice in field.choices:
        disabled = choice.disabled
        chips.append(
            f'\n    <label class="chip{" is-disabled" if disabled else ""}'
            f'{" chip-full" if choice.value == "none" else ""}">\n'
            f'      <input type="{kind}" name="{name}" value="{escaped(choice.value)}"'
            f"{' checked' if choice.selected else ''}{' disabled' if disabled else ''}>\n"
            f'      <span><b class="chip-label">{escaped(choice.label)}</b>'
            f"{f' <small>{escaped(choice.note)}</small>' if choice.note else ''}</span>\n"
            "    </label>\n    "
        )
    return mark_safe("".join(chips))


@register.simple_tag
def quick_picks(field: Any) -> SafeString:
    """The bid ladder's buttons: one per quick value, pressed when it is the value."""
    name, chosen = escaped(field.name), field.value
    buttons = []
    for value in field.extra.get("quick", ()):
        text = escaped(value)
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
            f'<button type="button" data-points-offset="{escaped(offset["value"])}" disabled>'
            f"<span data-points-value>{escaped(offset['label'])}</span></button>"
            for offset in offsets
        )
    )


@register.simple_tag
def pad_buttons(values: Iterable[Any]) -> SafeString:
    """A number pad's buttons, one per value."""
    return mark_safe(
        "".join(
            f'<button type="button" data-pad-value="{escaped(v)}" aria-pressed="false">'
            f"{escaped(v)}</button>"
            for v in values
        )
    )


@register.simple_tag
def seat_options(choices: Iterable[Any]) -> SafeString:
    """A select's options, one per choice, the chosen one selected."""
    return mark_safe(
        "".join(
            f'<option value="{escaped(c.value)}"{" selected" if c.selected else ""}>'
            f"{escaped(c.label)}</option>"
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
    messages = "".join(f'<p class="error">{escaped(capfirst(m))}</p>' for m in errors)
    return mark_safe(f'<div class="field-errors" id="e-{escaped(field.name)}">{messages}</div>')


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
            f'<span class="delta-chip{mark}">{escaped(cell.title)} {escaped(cell.signed)}</span>'
        )
    return mark_safe("".join(chips))


@register.simple_tag(takes_context=True)
def chip_fieldset(context: Context, field: Any) -> SafeString:
    """A field of chips: its legend (``legend``, else the field's label), its chips, a help
    line and its messages; ``legend``, ``type``, ``wide``, ``dense`` and ``help`` are read
    from the context, where an include's ``with`` puts them (a name no one gave is empty)."""
    legend, kind, help = (context.get(key) or "" for key in ("legend", "type", "help"))
    wide, dense = context.get("wide"), context.get("dense")
    name = escaped(field.name)
    errors = getattr(field, "errors", None)
    described = f' aria-describedby="e-{name}"' if errors else ""
    help_line = f'<p class="help">{escaped(help)}</p>' if help else ""
    return mark_safe(
        f'<fieldset class="field{" has-error" if errors else ""}" data-field="{name}"'
        f"{described}>\n"
        f"<legend>{escaped(legend or field.label)}</legend>\n"
        f'<div class="chips{" chips-wide" if wide else ""}{" chips-dense" if dense else ""}">'
        f"{chip_inputs(field, kind)}</div>\n"
        f"{help_line}{field_errors(field)}\n"
        "</fieldset>"
    )


@register.simple_tag
def penalty_rows(field: Any) -> SafeString:
    """The rows of a penalties field: per row, who, how many points, and why."""
    said = {
        "player": escaped(gettext("Player")),
        "nobody": escaped(gettext("Nobody")),
        "points": escaped(gettext("Points")),
        "reason": escaped(gettext("Reason")),
        "optional": escaped(gettext("(optional)")),
        "example": escaped(gettext("Revoke, reneged ...")),
    }
    rows = []
    for row in field.items:
        player, points, reason = row.items[0], row.items[1], row.items[2]
        player_name, points_name, reason_name = (
            escaped(player.name),
            escaped(points.name),
            escaped(reason.name),
        )
        errors = "".join(field_errors(item) for item in row.items)
        rows.append(
            '<fieldset class="penalty-row">\n'
            f'<legend class="visually-hidden">{escaped(row.label)}</legend>\n'
            '<div class="penalty-grid">\n<div>\n'
            f'<label for="f-{player_name}">{said["player"]}</label>\n'
            f'<select id="f-{player_name}" name="{player_name}">'
            f'<option value="">{said["nobody"]}</option>'
            f"{seat_options(player.choices)}</select>\n"
            "</div>\n<div>\n"
            f'<label for="f-{points_name}">{said["points"]}</label>\n'
            f'<input type="number" id="f-{points_name}" name="{points_name}" '
            f'value="{escaped(points.value)}" inputmode="numeric" min="0" step="1">\n'
            "</div>\n</div>\n"
            f'<label for="f-{reason_name}">{said["reason"]} '
            f'<span class="muted">{said["optional"]}</span></label>\n'
            f'<input type="text" id="f-{reason_name}" name="{reason_name}" '
            f'value="{escaped(reason.value)}" maxlength="200" '
            f'placeholder="{said["example"]}" '
            f'autocomplete="off">{errors}\n'
            "</fieldset>\n"
        )
    return mark_safe("".join(rows))


@register.simple_tag
def won_sides(field: Any) -> SafeString:
    """A box per side for the points it took, named by the side and its members."""
    sides = []
    for item in field.items:
        name, extra = escaped(item.name), item.extra
        members = extra.get("members")
        small = f' <small class="side-members">{escaped(members)}</small>' if members else ""
        limits = ""
        if item.minimum is not None:
            limits += f' min="{escaped(item.minimum)}"'
        if item.maximum is not None:
            limits += f' max="{escaped(item.maximum)}"'
        sides.append(
            f'<div class="won-side" data-side="{escaped(extra.get("side", ""))}">\n'
            f'<label for="f-{name}"><span class="side-name">{escaped(item.label)}</span>'
            f"{small}</label>\n"
            f'<input type="number" id="f-{name}" name="{name}" value="{escaped(item.value)}" '
            f'inputmode="numeric" pattern="[0-9]*"{limits} step="{escaped(item.step)}" '
            "data-points-input>\n</div>\n"
        )
    return mark_safe("".join(sides))


# --------------------------------------------------------------------------- the form's frame
# The parts of every round form around its controls, drawn on every round saved. Each reads
# what the form's template was given (``scoring/entry/form.html``) from the context: a name
# not given is written as the template language writes it, empty.


@register.simple_tag(takes_context=True)
def entry_head(context: Context) -> SafeString:
    """The form's hidden fields (the round's number, the form's key, the revision a
    correction is made against) and its heading: title, rules link, the line under it."""
    number, key, revision = (
        escaped(context.get("number", "")),
        context.get("key"),
        context.get("revision"),
    )
    word = context.get("word", "")
    hidden = f'<input type="hidden" name="number" value="{number}">\n'
    if key:
        hidden += f'<input type="hidden" name="key" value="{escaped(key)}">\n'
    if revision is not None:
        hidden += f'<input type="hidden" name="revision" value="{escaped(revision)}">\n'
    if context.get("correcting"):
        values = {"w": said_word(word), "number": context.get("number", "")}
        title = escaped(gettext("Correct %(w)s %(number)s") % values)
    else:
        title = f"{escaped(capfirst(said_word(word)) if word in ROUND_WORDS else word)} {number}"
    token = getattr(context.get("game"), "table_token", "")
    rules = ""
    if token:
        # The table page's own links, when it gave them; else as {% url %} gives it.
        urls = context.get("urls")
        href = urls["table_rules"] if urls else reverse("scoring:table_rules", args=[token])
        said_rules = escaped(gettext("Rules"))
        rules = f'<a class="rules-link" href="{escaped(href)}" data-rules>{said_rules}</a>\n'
    heading = context.get("heading", "")
    under = f'<p class="muted">{escaped(heading)}</p>\n' if heading else ""
    return mark_safe(
        f'{hidden}<header class="entry-head">\n<h2>{title}</h2>\n{rules}{under}</header>'
    )


# How long a process keeps a round form's controls drawn (see ``round_controls``).
CONTROLS_KEPT_SECONDS = 24 * 3600


@register.simple_tag(takes_context=True)
def round_controls(context: Context) -> SafeString:
    """The game's controls of the round form (``game_template`` drawn in this context).

    A form holding nothing posted draws the same controls for the same table before the
    round (``EntryForm.drawn_from``): those are drawn once per server process and kept in
    its ``template_fragments`` cache under that text's digest. A form holding posted
    values or messages is drawn anew every time."""
    name = str(context.get("game_template", ""))
    drawn_from = context["form"].drawn_from
    if not drawn_from:
        return mark_safe(draw_controls(context, name))
    # Drawn in the reader's language: one copy kept per language.
    drawn = f"{name}\n{get_language()}\n{drawn_from}"
    digest = hashlib.md5(drawn.encode(), usedforsecurity=False).hexdigest()
    key = f"round-controls:{digest}"
    kept = caches["template_fragments"]
    markup = kept.get(key)
    if markup is None:
        markup = draw_controls(context, name)
        kept.set(key, markup, CONTROLS_KEPT_SECONDS)
    return mark_safe(markup)


def draw_controls(context: Context, name: str) -> str:
    engine = context.template.engine if context.template else Engine.get_default()
    controls = engine.get_template(name)
    with context.push():
        return str(controls.render(context))


@register.simple_tag(takes_context=True)
def stale_notice(context: Context) -> SafeString:
    """What the form says when another phone records a round meanwhile (shown by the
    page's script), with a button to start over from the fresh form."""
    word = said_word(context.get("word", ""))
    fresh_url = context.get("fresh_url", "")
    button = ""
    start_over = escaped(gettext("Discard mine and start over"))
    if fresh_url:
        button = (
            f'<button type="button" class="button" hx-get="{escaped(fresh_url)}" '
            f'hx-target="{escaped(context.get("target", ""))}" hx-swap="outerHTML" '
            f'hx-disabled-elt="this">{start_over}</button>\n'
        )
    if context.get("correcting"):
        # A correction made against a round another phone changed: said as the refusal
        # that follows says it, the round as it stands shown on saving.
        number = context.get("number", "")
        said = "<p>{}</p>\n".format(
            escaped(
                gettext(
                    "%(w)s %(number)s changed since you opened it. What you typed is kept; saving "
                    "it will show you what is there now."
                )
                % {"w": capfirst(word), "number": number}
            )
        )
    else:
        said = "<p>{}</p>\n".format(
            escaped(
                gettext(
                    "Another phone has just recorded a %(w)s. What you typed is kept; saving it "
                    "will show you what the other phone recorded."
                )
                % {"w": word}
            )
        )
    return mark_safe(
        f'<div class="stale notice warn" hidden data-stale role="status">\n{said}{button}</div>'
    )


MISDEAL_ASKED = gettext_noop("Record a misdeal? Nobody scores and the same dealer deals again.")


@register.simple_tag(takes_context=True)
def entry_actions(context: Context) -> SafeString:
    """The Save bar: where a failed send is said, the first problem of a refused save, the
    preview of the scores, Save (unless another phone's round is being shown) and Misdeal."""
    form: Any = context.get("form")
    post_url, target = escaped(context.get("post_url", "")), escaped(context.get("target", ""))
    word, number = context.get("word", ""), context.get("number", "")
    problem, waiting = "", ""
    not_saved = escaped(gettext("Not saved:"))
    shown_here = escaped(gettext("The scores show here before you save."))
    misdeal_asked = escaped(gettext(MISDEAL_ASKED))
    misdeal_said = escaped(gettext("Misdeal"))
    if form.has_errors:
        count = form.error_count
        others = count - 1
        more = (
            ' <span class="more">({})</span>'.format(
                escaped(
                    ngettext("%(count)s more marked", "%(count)s more marked", others)
                    % {"count": others}
                )
            )
            if count > 1
            else ""
        )
        problem = (
            '<p class="notice error first-problem" data-first-problem role="alert">'
            f"<strong>{not_saved}</strong> "
            f"{escaped(capfirst(form.messages[0]))}{more}</p>\n"
        )
    else:
        waiting = f'<p class="muted small">{shown_here}</p>\n'
    save = ""
    if not context.get("conflict"):
        saving = ""
        if context.get("correcting") and context.get("closed"):
            label = escaped(gettext("Ask the desk to make it"))
        elif context.get("correcting"):
            label = escaped(gettext("Save the correction"))
            saving = escaped(gettext("Saving the correction"))
        else:
            values = {"w": said_word(word), "number": number}
            label = escaped(gettext("Save %(w)s %(number)s") % values)
            saving = escaped(gettext("Saving %(w)s %(number)s") % values)
        # What the button says while it counts down to saving by itself (static/js/table/
        # countdown.js): none for a request to the desk.
        counting = f' data-saving="{saving}"' if saving else ""
        save = (
            f'<button type="submit" name="action" value="save" class="primary save"{counting}>'
            f"{label}</button>\n"
        )
    misdeal = ""
    if form.has_misdeal:
        misdeal = (
            f'<button type="button" class="misdeal" hx-post="{post_url}" '
            """hx-vals='{"action": "misdeal"}' """
            f'hx-target="{target}" hx-swap="outerHTML" hx-disabled-elt="this, previous .save" '
            f'hx-confirm="{misdeal_asked}">{misdeal_said}'
            "</button>\n"
        )
    return mark_safe(
        '<div class="actions">\n'
        '<p class="notice error send-error" data-send-error hidden role="alert"></p>\n'
        f"{problem}"
        f'<div id="preview" class="preview" aria-live="polite" hx-post="{post_url}" '
        'hx-trigger="change from:closest form delay:250ms, input from:closest form delay:700ms" '
        """hx-vals='{"action": "preview"}' hx-target="this" hx-swap="innerHTML" """
        'hx-sync="this:replace" hx-disabled-elt="unset">\n'
        f"{waiting}</div>\n"
        f'<div class="action-buttons">\n{save}{misdeal}</div>\n'
        "</div>"
    )
