"""What a reissued link leaves in the logs: the log's action and a fingerprint of the old
token (enough to recognise a revoked pass at the desk, useless to use), shared by the
event's entrants and the roster's players."""

from __future__ import annotations

import hashlib

ENTRANT_REISSUE = "entrant_link_reissue"
PLAYER_REISSUE = "player_link_reissue"


def token_fingerprint(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:20]
