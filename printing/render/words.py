"""The renderer's few words of its own ("continued", "page 1 of 2", "Players:") in the
reader's language. The renderer knows no Django: the printing app hands it its translator
(``use_translator``, in ``printing.registry``); alone, it says them in English. ``N_``
marks them for the catalogue."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["N_", "said", "use_translator"]


def N_(text: str) -> str:
    """Marks a word of the renderer for the catalogue; returns it unchanged."""
    return text


def _english(text: str) -> str:
    return text


_translate: Callable[[str], str] = _english


def use_translator(translate: Callable[[str], str]) -> None:
    """Say the renderer's words with ``translate`` (the active language's gettext)."""
    global _translate
    _translate = translate


def said(text: str) -> str:
    """``text`` (marked with ``N_``) in the active language."""
    return _translate(text)
