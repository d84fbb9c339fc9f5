"""Players' own links at the desk: reissued (the old one refused, the log keeping only a
fingerprint), a player checked in by their pass (right event, wrong event, revoked,
already in, dropped, not a pass), ticked players checked in together, and a roster
player's pass at a club night."""

from __future__ import annotations

import string

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tournaments.club import services as club
from tournaments.events import passes, services
from tournaments.models import Entrant, Event, EventLog, RosterLog
from tournaments.models.tokens import new_private_token

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
SITE = "https://scores.example.org"


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="pw", is_staff=True)


def new_event(director, name: str = "Friday Roolz") -> Event:
    event = services.event_create(owner=director, name=name, game="roolz")
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    return event


@pytest.fixture
def event(director) -> Event:
    return new_event(director)


def entrant(event: Event, name: str) -> Entrant:
    return event.entrants.get(name=name)


def test_a_link_is_the_site_the_path_and_the_token():
    assert passes.private_link(SITE + "/", "abc") == f"{SITE}/me/abc/"
    assert passes.written_link(f"{SITE}/me/abc/") == "scores.example.org/me/abc/"


def test_the_pass_carries_the_address_the_players_page_answers_at():
    token = new_private_token()
    assert passes.private_path(token) == reverse("tournaments:me", args=[token])


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("https://scores.example.org/me/AbCdEfGhIjKlMnOpQrStUv/", "AbCdEfGhIjKlMnOpQrStUv"),
        ("  scores.example.org/me/AbCdEfGhIjKlMnOpQrStUv  ", "AbCdEfGhIjKlMnOpQrStUv"),
        ("/me/AbCd-fGh_jKlMnOpQrStUv/?from=card", "AbCd-fGh_jKlMnOpQrStUv"),
        ("AbCdEfGhIjKlMnOpQrStUv", "AbCdEfGhIjKlMnOpQrStUv"),
        ("AbCdEfGhIjKlMnOpQrStUv/", "AbCdEfGhIjKlMnOpQrStUv"),
        ("Ann", None),
        ("", None),
        ("https://scores.example.org/e/AbCdEfGhIjKl/", None),
        ("/me/short/", None),
        ("x" * 400, None),
        ("<script>AbCdEfGhIjKlMnOpQrStUv", None),
    ],
)
def test_the_token_is_read_from_a_link_or_alone(text, token):
    assert passes.token_from_pass(text) == token


def test_reissue_gives_a_new_token_and_the_old_one_is_refused(event, director):
    ann = entrant(event, "Ann")
    old = ann.private_token
    revision = Event.objects.get(pk=event.pk).revision
    services.entrant_link_reissue(event=event, entrant=ann, user=director)
    ann.refresh_from_db()
    event.refresh_from_db()
    assert ann.private_token != old and len(ann.private_token) == len(old)
    assert event.revision == revision + 1  # a pass sheet printed before is printed afresh
    assert not Entrant.objects.filter(private_token=old).exists()
    assert passes.pass_holder(event=event, token=old).revoked
    assert passes.pass_holder(event=event, token=ann.private_token).entrant == ann
    line = EventLog.objects.filter(event=event, action="entrant_link_reissue").get()
    assert line.user == director
    assert line.before == {
        "id": ann.pk,
        "name": "Ann",
        "fingerprint": passes.token_fingerprint(old),
    }
    # The log keeps neither token: reading it gives no way in.
    assert old not in str(line.before) + str(line.after)
    assert ann.private_token not in str(line.before) + str(line.after)


def test_check_in_by_link_or_by_token(event, director):
    ann, ben = entrant(event, "Ann"), entrant(event, "Ben")
    found, already = services.entrant_check_in_by_pass(
        event=event, text=f"{SITE}/me/{ann.private_token}/", user=director
    )
    assert (found.pk, already) == (ann.pk, False)
    found, already = services.entrant_check_in_by_pass(
        event=event, text=ben.private_token, user=director
    )
    assert (found.pk, already) == (ben.pk, False)
    checked = set(event.entrants.filter(checked_in=True).values_list("name", flat=True))
    assert checked == {"Ann", "Ben"}
    assert EventLog.objects.filter(event=event, action="entrant_check_in").count() == 2


def test_a_player_already_in_is_told_so_and_nothing_changes(event, director):
    ann = entrant(event, "Ann")
    services.entrant_check_in_by_pass(event=event, text=ann.private_token, user=director)
    lines, revision = EventLog.objects.count(), Event.objects.get(pk=event.pk).revision
    found, already = services.entrant_check_in_by_pass(
        event=event, text=ann.private_token, user=director
    )
    assert (found.pk, already) == (ann.pk, True)
    assert EventLog.objects.count() == lines
    assert Event.objects.get(pk=event.pk).revision == revision


def refusal(event, text, director) -> str:
    with pytest.raises(services.TournamentError) as refused:
        services.entrant_check_in_by_pass(event=event, text=text, user=director)
    assert [p.field for p in refused.value.problems] == ["pass"]
    assert not event.entrants.filter(checked_in=True).exists()
    return str(refused.value)


def test_a_pass_of_another_event_is_refused(event, director):
    other = new_event(director, "Saturday Roolz")
    stranger = entrant(other, "Ann")
    assert "another event" in refusal(event, f"{SITE}/me/{stranger.private_token}/", director)
    assert not other.entrants.filter(checked_in=True).exists()


def test_a_revoked_pass_is_refused_by_name(event, director):
    ann = entrant(event, "Ann")
    old = ann.private_token
    services.entrant_link_reissue(event=event, entrant=ann, user=director)
    assert "revoked" in refusal(event, f"{SITE}/me/{old}/", director)


def test_a_mistyped_pass_and_what_is_no_pass_are_refused(event, director):
    ann = entrant(event, "Ann")
    typo = ann.private_token[:-1] + ("A" if ann.private_token[-1] != "A" else "B")
    assert "no player has this pass" in refusal(event, typo, director)
    assert "not a player's link" in refusal(event, "Ann", director)
    assert "not a player's link" in refusal(event, "", director)


def test_a_dropped_players_pass_is_refused(event, director):
    ann = entrant(event, "Ann")
    services.entrant_drop(event=event, entrant=ann, user=director)
    assert "Ann has dropped" in refusal(event, ann.private_token, director)


def test_a_closed_event_checks_in_nobody(event, director):
    ann = entrant(event, "Ann")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)
    event.refresh_from_db()
    with pytest.raises(services.TournamentError, match="closed"):
        services.entrant_check_in_by_pass(event=event, text=ann.private_token, user=director)


def test_the_ticked_players_are_checked_in_together(event, director):
    ids = [entrant(event, n).pk for n in ("Ann", "Cat", "Eve")]
    services.entrant_drop(event=event, entrant=entrant(event, "Eve"), user=director)
    services.entrant_check_in(event=event, entrant=entrant(event, "Cat"), user=director)
    other = new_event(director, "Saturday Roolz")
    count = services.entrants_check_in_these(
        event=event, entrant_ids=[*ids, entrant(other, "Ben").pk], user=director
    )
    assert count == 1  # Ann; Cat was in, Eve dropped, the other event's Ben not touched
    checked = set(event.entrants.filter(checked_in=True).values_list("name", flat=True))
    assert checked == {"Ann", "Cat"}
    assert not other.entrants.filter(checked_in=True).exists()
    line = EventLog.objects.filter(event=event, action="entrants_check_in_these").get()
    assert line.after["ids"] == [entrant(event, "Ann").pk]
    with pytest.raises(services.TournamentError, match="tick the players"):
        services.entrants_check_in_these(event=event, entrant_ids=[], user=director)


def test_a_roster_players_pass_checks_in_their_entry_of_the_night(event, director):
    club.club_night_set(event=event, rated=False, user=director)
    roster = club.roster_for(owner=director)
    ann = roster.players.get(name="Ann")
    found, already = services.entrant_check_in_by_pass(
        event=event, text=f"{SITE}/me/{ann.private_token}/", user=director
    )
    assert (found.name, already) == ("Ann", False)
    # A roster player not entered tonight is named; another club's player is refused.
    zoe = club.player_create(roster=roster, name="Zoë", user=director)
    assert "Zoë is on the roster but not in this event" in refusal_kept(event, zoe, director)


def refusal_kept(event, player, director) -> str:
    with pytest.raises(services.TournamentError) as refused:
        services.entrant_check_in_by_pass(event=event, text=player.private_token, user=director)
    return str(refused.value)


def test_a_reissued_roster_link_is_refused_at_the_night(event, director):
    club.club_night_set(event=event, rated=False, user=director)
    roster = club.roster_for(owner=director)
    ann = roster.players.get(name="Ann")
    old = ann.private_token
    club.player_link_reissue(player=ann, user=director)
    ann.refresh_from_db()
    assert ann.private_token != old
    line = RosterLog.objects.filter(roster=roster, action="player_link_reissue").get()
    assert line.before["fingerprint"] == passes.token_fingerprint(old)
    assert old not in str(line.before)
    with pytest.raises(services.TournamentError, match="revoked"):
        services.entrant_check_in_by_pass(event=event, text=old, user=director)
    found, _ = services.entrant_check_in_by_pass(event=event, text=ann.private_token, user=director)
    assert found.name == "Ann"


def test_a_night_of_another_club_refuses_a_roster_pass(event, director):
    club.club_night_set(event=event, rated=False, user=director)
    ann = club.roster_for(owner=director).players.get(name="Ann")
    other_director = get_user_model().objects.create_user("other", is_staff=True)
    theirs = new_event(other_director, "Their night")
    club.club_night_set(event=theirs, rated=False, user=other_director)
    assert "another event" in refusal(theirs, ann.private_token, other_director)


TOKENS = st.text(alphabet=string.ascii_letters + string.digits + "-_", min_size=16, max_size=32)
SITES = st.sampled_from(["https://scores.example.org", "http://192.168.1.20:8000", ""])


@given(token=TOKENS, site=SITES, trailing=st.sampled_from(["", "/", "/?from=card", "#top"]))
def test_any_written_link_gives_back_its_token(token, site, trailing):
    link = passes.private_link(site, token).rstrip("/") + trailing
    assert passes.token_from_pass(link) == token
    assert passes.token_from_pass(passes.written_link(link)) == token
    assert passes.token_from_pass(f"  {token}\n") == token


@given(text=st.text(max_size=60))
def test_what_is_no_token_is_read_as_none_never_an_error(text):
    token = passes.token_from_pass(text)
    assert token is None or passes.TOKEN_SHAPE.fullmatch(token)
