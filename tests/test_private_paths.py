"""No log line writes a private token: the addresses that carry one, with it left out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.private_paths import without_private_tokens
from tournaments.models.tokens import new_private_token

TOKENS = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", min_size=8)


@given(TOKENS, st.sampled_from(["", "?rev=12.3", "check-in/", "table/"]))
def test_a_players_own_link_is_written_without_its_token(token, rest):
    line = f"GET /me/{token}/{rest} HTTP/1.1"
    written = without_private_tokens(line)
    assert token not in written
    assert written.startswith("GET /me/…/")


@given(TOKENS)
def test_a_registrations_status_page_is_written_without_its_token(token):
    written = without_private_tokens(f"/e/AbCdEfGhIjKl/signup/{token}/")
    assert token not in written and written == "/e/AbCdEfGhIjKl/signup/…/"


@pytest.mark.parametrize(
    "path", ["/e/AbCdEfGhIjKl/standings/", "/e/AbCdEfGhIjKl/signup/", "/t/abc/", "/desk/3/"]
)
def test_other_addresses_are_written_as_they_are(path):
    assert without_private_tokens(path) == path


def test_the_access_log_leaves_the_token_out():
    from datetime import timedelta
    from types import SimpleNamespace

    from gunicorn.config import Config

    from config.access_log import PrivateTokensLeftOut

    token = new_private_token()
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/me/{token}/?rev=1",
        "PATH_INFO": f"/me/{token}/",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "QUERY_STRING": "rev=1",
    }
    response = SimpleNamespace(status="200 OK", headers=[], sent=10)
    atoms = PrivateTokensLeftOut(Config()).atoms(response, [], environ, timedelta(seconds=0))
    assert atoms["r"] == "GET /me/…/?rev=1 HTTP/1.1"
    assert not [name for name, value in atoms.items() if token in str(value)]
