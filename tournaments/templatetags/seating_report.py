"""A round's seating report in its reader's language: ``{{ report|report_shown }}`` (the
sentences stored with the round, said again in the language of the request)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from tournaments.seating.adapter import report_shown as shown

register = template.Library()


@register.filter(name="report_shown")
def report_shown(report: Any) -> Any:
    return shown(report) if isinstance(report, Mapping) else report
