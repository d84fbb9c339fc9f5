"""A rating history as a small SVG line chart, drawn on the server (no script needed)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

WIDTH = 320
HEIGHT = 120
PAD_LEFT = 34
PAD_RIGHT = 8
PAD_Y = 12


def history_svg(values: Sequence[float], *, label: str = "Rating history") -> str:
    """An SVG of ``values`` in order (one point a game), scaled to fit, with its range."""
    title = escape(label)
    if not values:
        return (
            f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-label="{title}"><title>{title}</title>'
            f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle">'
            "No rated games yet</text></svg>"
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
    return (
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{title}: from {values[0]:.1f} to {values[-1]:.1f}">'
        f"<title>{title}</title>"
        f'<line class="axis" x1="{PAD_LEFT}" y1="{PAD_Y}" x2="{PAD_LEFT}" '
        f'y2="{HEIGHT - PAD_Y}"/>'
        f'<line class="axis" x1="{PAD_LEFT}" y1="{HEIGHT - PAD_Y}" x2="{WIDTH - PAD_RIGHT}" '
        f'y2="{HEIGHT - PAD_Y}"/>'
        f'<text x="{PAD_LEFT - 4}" y="{PAD_Y + 4}" text-anchor="end">{high:.1f}</text>'
        f'<text x="{PAD_LEFT - 4}" y="{HEIGHT - PAD_Y}" text-anchor="end">{low:.1f}</text>'
        f'<polyline points="{points}"/>'
        f'<circle cx="{last_x:.1f}" cy="{y(values[-1]):.1f}" r="3"/>'
        "</svg>"
    )
