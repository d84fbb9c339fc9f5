"""gunicorn's access log without players' private tokens (``deploy/gunicorn.conf.py``
names this logger): a request for ``/me/<token>/`` is written ``/me/…/``."""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from common.private_paths import without_private_tokens

# The atoms of an access log line that hold the address asked for, or the page it came from.
ADDRESS_ATOMS = ("r", "U", "f", "{raw_uri}e", "{path_info}e", "{http_referer}e", "{referer}i")


class PrivateTokensLeftOut(Logger):
    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        for name in ADDRESS_ATOMS:
            if isinstance(atoms.get(name), str):
                atoms[name] = without_private_tokens(atoms[name])
        return atoms
