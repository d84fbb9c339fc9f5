"""Tokens: the unguessable part of an address. Public ones (events, seasons, rosters) are
short, typed from a projector now and then; private ones (a player's own link) are long,
since whoever holds one acts as that player."""

from __future__ import annotations

import secrets


def new_public_token() -> str:
    return secrets.token_urlsafe(9)  # short: it is typed from a projector now and then


def new_private_token() -> str:
    return secrets.token_urlsafe(16)  # 22 characters, 128 bits: proof of who holds it
