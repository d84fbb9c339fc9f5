"""A rating history as a small SVG line chart, drawn on the server (no script needed).

Its words are ``Words`` said by ``say`` and its numbers written by ``number``, both given
by the outer layer in its reader's language (English and "12.3" by default)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from common.phrases import N_, Words

WIDTH = 320
HEIGHT = 120
PAD_LEFT = 34
PAD_RIGHT = 8
PAD_Y = 12


def _one_place(value: float) -> str:
    return f"{value:.1f}"


def history_svg(
    values: Sequence[float],
    *,
    label: Words | None = None,
    say: Callable[[Words], str] = str,
    number: Callable[[float], str] = _one_place,
) -> str:
    """An SVG of ``values`` in order (one point a game), scaled to fit, with its range."""
    label = label if label is not None else Words(N_("Rating history"))
    title = escape(say(label))
    if not values:
        empty = escape(say(Words(N_("No rated games yet"))))
        return (
            f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-label="{title}"><title>{title}</title>'
            f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle">'
            f"{empty}</text></svg>"
        )
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1.0, high + 1.0
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - 2 * PAD_Y
    step = inner_w / (len(values) - 1) if len(values) > 1 else 0.0

    def y(v: float) -> float:
        return PAD_Y + (high - v) / (high - low) * inner_h

    points = " ".join(f"{PAD_LEFT + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    last_x = PAD_LEFT + (len(values) - 1) * step
    ranged = say(
        Words(
            N_("{label}: from {first} to {last}"),
            {"label": label, "first": number(values[0]), "last": number(values[-1])},
        )
    )
    return (
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(ranged)}">'
        f"<title>{title}</title>"
        f'<line class="axis" x1="{PAD_LEFT}" y1="{PAD_Y}" x2="{PAD_LEFT}" '
        f'y2="{HEIGHT - PAD_Y}"/>'
        f'<line class="axis" x1="{PAD_LEFT}" y1="{HEIGHT - PAD_Y}" x2="{WIDTH - PAD_RIGHT}" '
        f'y2="{HEIGHT - PAD_Y}"/>'
        f'<text x="{PAD_LEFT - 4}" y="{PAD_Y + 4}" text-anchor="end">{number(high)}</text>'
        f'<text x="{PAD_LEFT - 4}" y="{HEIGHT - PAD_Y}" text-anchor="end">{number(low)}</text>'
        f'<polyline points="{points}"/>'
        f'<circle cx="{last_x:.1f}" cy="{y(values[-1]):.1f}" r="3"/>'
        "</svg>"
    )
