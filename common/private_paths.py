"""The addresses that carry a private token (a player's own link, a registration's status
page): whoever holds one acts as that person, so no log line ever writes it."""

from __future__ import annotations

import re

PRIVATE_PARTS = (
    (re.compile(r"/me/[^/?#\s]+/?"), "/me/…/"),
    (re.compile(r"(/e/[^/?#\s]+/signup/)[^/?#\s]+/?"), r"\1…/"),
)


def without_private_tokens(text: str) -> str:
    """``text`` (a path, a request line, a referrer) with every private token left out."""
    for pattern, kept in PRIVATE_PARTS:
        text = pattern.sub(kept, text)
    return text
