"""The share box: a casual table's entry link for the players, a watch-only link for anyone
else, and a view link page that never carries the entry link."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.web.phone import qr_svg
from tests.scoring.test_table_trust import event_table
from tests.web.test_table_views import ROUND_1, make_game, url

pytestmark = pytest.mark.django_db


def share_box(html: str) -> str:
    match = re.search(r'<details class="card share".*?</details>', html, re.S)
    assert match, "the table page has a share box"
    return match.group(0)


def view_path(game) -> str:
    return reverse("scoring:table_view", args=[game.view_token])


def test_a_casual_tables_share_box_has_the_entry_link_and_a_watch_only_link(client):
    game = make_game(rounds=[ROUND_1])
    box = share_box(client.get(url("table", game)).content.decode())

    entry = f"http://testserver{url('table', game)}"
    watch = f"http://testserver{view_path(game)}"
    assert f'id="share-url" type="text" readonly value="{entry}"' in box
    assert f'id="share-view-url" type="text" readonly value="{watch}"' in box
    assert "Watch only: the scores, no entering" in box
    assert 'data-copy="#share-url"' in box
    assert 'data-copy="#share-view-url"' in box
    # Each link its own QR code, each labelled.
    assert box.count("<svg") == 2
    assert 'aria-label="QR code of the table link"' in box
    assert 'aria-label="QR code of the watch-only link"' in box
    assert qr_svg(entry) in box
    assert qr_svg(watch) in box


def test_an_event_tables_share_box_has_no_watch_only_link(client):
    game = event_table(deals=1)
    box = share_box(client.get(url("table", game)).content.decode())
    assert "share-view-url" not in box
    assert game.view_token not in box


def test_the_view_link_page_never_carries_the_entry_link(client):
    game = make_game(rounds=[ROUND_1])
    response = client.get(view_path(game))
    assert response.status_code == 200
    html = response.content.decode()
    assert game.table_token not in html
    assert "/t/" not in html
    assert "share-url" not in html
    assert "<form" not in html
