"""The blank-sheets form: which sheet, how many copies, which paper."""

from __future__ import annotations

from typing import Any

from django import forms

from printing.errors import PrintRequestError
from printing.paper import PAPER_NAMES
from printing.scoresheets import blank_kinds
from printing.sources import MAX_COPIES, blank_request
from scoring.engines.registry import ENGINES

PAPER_CHOICES = [(key, name) for key, name in PAPER_NAMES.items()]


def sheet_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Game and player count in one list, grouped by game: "<game>, 4 players", the game
    by its title."""
    kinds = blank_kinds()
    return [
        (engine.title, [(kind.key, kind.label) for kind in kinds if kind.game == key])
        for key, engine in ENGINES.items()
    ]


class BlankSheetsForm(forms.Form):
    sheet = forms.ChoiceField(label="Game and players", choices=sheet_choices)
    copies = forms.IntegerField(
        label="Copies",
        min_value=1,
        max_value=MAX_COPIES,
        initial=10,
        help_text=f"1 to {MAX_COPIES} sheets, one game per sheet.",
    )
    paper = forms.ChoiceField(label="Paper", choices=PAPER_CHOICES, widget=forms.RadioSelect)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = {kind.key: kind for kind in blank_kinds()}.get(data.get("sheet", ""))
        if kind is not None and data.get("copies"):
            try:
                data["what"] = blank_request(
                    game=kind.game,
                    players=kind.players,
                    copies=data["copies"],
                    options=kind.options,
                )
            except PrintRequestError as error:
                raise forms.ValidationError(str(error)) from None
        return data
