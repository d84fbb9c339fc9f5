"""Public tokens: the short, unguessable part of a public address (events, seasons, rosters)."""

from __future__ import annotations

import secrets


def new_public_token() -> str:
    return secrets.token_urlsafe(9)  # short: it is typed from a projector now and then
