"""The blank-sheets form: which sheet, how many copies, which paper."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from printing.errors import PrintRequestError
from printing.paper import paper_choices
from printing.scoresheets import blank_kinds
from printing.sources import MAX_COPIES, blank_request
from scoring.engines.registry import ENGINES


def sheet_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Game and player count in one list, grouped by game: "<game>, 4 players", the game
    by its title."""
    kinds = blank_kinds()
    return [
        (engine.title, [(kind.key, kind.label) for kind in kinds if kind.game == key])
        for key, engine in ENGINES.items()
    ]


class BlankSheetsForm(forms.Form):
    sheet = forms.ChoiceField(label=gettext_lazy("Game and players"), choices=sheet_choices)
    copies = forms.IntegerField(
        label=gettext_lazy("Copies"),
        min_value=1,
        max_value=MAX_COPIES,
        initial=10,
        help_text=format_lazy(
            gettext_lazy("1 to {most} sheets, one game per sheet."), most=MAX_COPIES
        ),
    )
    paper = forms.ChoiceField(
        label=gettext_lazy("Paper"), choices=paper_choices, widget=forms.RadioSelect
    )

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
