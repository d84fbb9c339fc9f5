"""The roster desk and the public season, leaderboard and player pages, through HTTP."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.club.test_flow import night, play_round
from tournaments.club import services as club
from tournaments.models import ClubNight, EntrantPlayer, Player, Season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


@pytest.fixture
def season_played(director, django_capture_on_commit_callbacks):
    roster = club.roster_for(owner=director)
    season = club.season_create(
        roster=roster,
        name="Autumn Thursdays",
        rule={"counting": "best", "best": 1, "place_points": "10 8 6 5 4 3 2 1"},
    )
    for week in (1, 2):
        event = night(director, f"Week {week}", season=season)
        play_round(event, director, django_capture_on_commit_callbacks)
    return season


def test_season_page_csv_and_sheet(client, season_played):
    token = season_played.public_token
    page = client.get(reverse("club:season", args=[token]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Season table" in text and "after 2 nights" in text and "Łukasz" in text
    # A poll with the revision shown answers 204 while nothing changed.
    revision = page.context["revision"]
    poll = client.get(
        reverse("club:season", args=[token]), {"rev": revision}, HTTP_HX_REQUEST="true"
    )
    assert poll.status_code == 204
    assert client.get(reverse("club:season_projector", args=[token])).status_code == 200
    rows = list(csv.reader(io.StringIO(client.get(f"/s/{token}/season.csv").content.decode())))
    assert rows[0] == ["Rank", "Name", "Night 1", "Night 2", "Nights", "Wins", "Total"]
    by_name = {r[1]: r for r in rows[1:] if len(r) > 2}
    assert len(by_name) == 7
    # Best 1 of 2: the total is the better night; the other night is starred.
    for row in by_name.values():
        nights = [int(c.rstrip("*")) for c in row[2:4] if c]
        assert int(row[-1]) == max(nights)
    pdf = client.get(f"/s/{token}/season.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_leaderboard_and_player_page(client, season_played):
    roster = season_played.roster
    board = client.get(reverse("club:leaderboard", args=[roster.public_token]))
    assert board.status_code == 200
    lines = board.context["lines"]
    assert len(lines) == 7
    assert [line.rank for line in lines] == sorted(line.rank for line in lines)
    best = lines[0].player
    page = client.get(reverse("club:player", args=[roster.public_token, best.pk]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "<svg" in text and "<polyline" in text and "rank 1 of 7" in text
    assert text.count("Week ") >= 2  # both nights listed


def test_desk_club_import_asks_when_ambiguous(client, director):
    client.force_login(director)
    roster = club.roster_for(owner=director)
    club.player_create(roster=roster, name="Sam Lee")
    club.player_create(roster=roster, name="sam lee", allow_same=True)
    assert client.get(reverse("club:club")).status_code == 200
    asked = client.post(reverse("club:roster_import"), {"text": "SAM LEE\nŁukasz\n"})
    assert "Who is it?" in asked.content.decode()
    assert Player.objects.filter(roster=roster).count() == 2
    done = client.post(
        reverse("club:roster_import"), {"text": "SAM LEE\nŁukasz\n", "choice-1": "new"}
    )
    assert done.status_code == 200
    assert Player.objects.filter(roster=roster).count() == 4
    bad = client.post(reverse("club:roster_import"), {"text": "=" * 60})
    assert bad.status_code == 200 and "at most 40 characters" in bad.content.decode()


def test_desk_season_form_names_the_field(client, director):
    client.force_login(director)
    answer = client.post(reverse("club:season_new"), {"name": "S", "counting": "best", "best": "0"})
    assert answer.status_code == 200
    assert "best nights must be 1 to" in answer.content.decode()
    assert not Season.objects.exists()


def test_desk_event_night_links_and_only_the_owner_sees_it(client, director):
    from tests.tournaments.club.test_flow import NAMES
    from tournaments.events import services

    event = services.event_create(owner=director, name="Friday", game="roolz")
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    client.force_login(director)
    url = reverse("club:event_night", args=[event.pk])
    assert client.get(url).status_code == 200
    answer = client.post(url, {"season": "", "rated": "1"})
    assert answer.status_code == 200
    assert ClubNight.objects.get(event=event).rated
    assert EntrantPlayer.objects.filter(entrant__event=event).count() == len(NAMES)
    other = get_user_model().objects.create_user("other", password="x", is_staff=True)
    client.force_login(other)
    assert client.get(url).status_code == 404
    player = get_user_model().objects.create_user("player", password="x")
    client.force_login(player)
    assert client.get(reverse("club:club")).status_code == 403


def test_the_desk_shows_each_rated_players_rating(client, director, season_played):
    from tournaments.club.selectors import player_skill, rating_text

    event = ClubNight.objects.filter(season=season_played).first().event
    client.force_login(director)
    text = client.get(reverse("tournaments:desk_event", args=[event.pk])).content.decode()
    for link in EntrantPlayer.objects.filter(entrant__event=event).select_related("player"):
        shown = rating_text(player_skill(link.player))
        assert f'title="rating">{shown}</small>' in text


def test_roster_json_round_trip_through_the_desk(client, director, season_played):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(director)
    document = client.get(reverse("club:roster_json")).content
    other = get_user_model().objects.create_user("other", password="x", is_staff=True)
    client.force_login(other)
    upload = SimpleUploadedFile("club.json", document, content_type="application/json")
    answer = client.post(reverse("club:roster_json_import"), {"file": upload})
    assert answer.status_code == 200 and "7 new players" in answer.content.decode()
    theirs = club.roster_for(owner=other)
    assert theirs.seasons.filter(name="Autumn Thursdays").exists()
    bad = SimpleUploadedFile("club.json", b"{nope", content_type="application/json")
    answer = client.post(reverse("club:roster_json_import"), {"file": bad})
    assert answer.status_code == 200 and "the file is not JSON" in answer.content.decode()


def test_the_season_csv_is_formula_safe(client, season_played):
    player = Player.objects.filter(roster=season_played.roster).first()
    club.player_update(player=player, name="=cmd|x", contact="")
    text = client.get(f"/s/{season_played.public_token}/season.csv").content.decode()
    assert "'=cmd|x" in text
    assert "=cmd|x" not in text.replace("'=cmd|x", "")


def test_the_player_page_places_every_night_in_a_season_or_not(
    client, director, season_played, django_capture_on_commit_callbacks
):
    from tournaments.standings.adapter import event_standings

    roster = season_played.roster
    loose = night(director, "A night of no season", names=["Ann", "Ben", "Cat", "Dan"])
    play_round(loose, director, django_capture_on_commit_callbacks)
    ann = Player.objects.get(roster=roster, name="Ann")
    page = client.get(reverse("club:player", args=[roster.public_token, ann.pk]))
    nights = page.context["page"].nights
    assert len(nights) == 3
    assert [n.season is None for n in nights] == [True, False, False]
    for shown in nights:
        ranks = {row.entrant: row.rank for row in event_standings(shown.event).rows}
        assert shown.place == ranks[shown.entrant_id]
    assert nights[0].points is None  # no season: a place and no points
    text = page.content.decode()
    assert f'<td class="num">{nights[0].place}</td>' in text


def test_a_director_renames_a_roster_player_at_the_desk(
    client, director, season_played, django_capture_on_commit_callbacks
):
    from tournaments.models import RosterLog

    roster = season_played.roster
    ann = Player.objects.get(roster=roster, name="Ann")
    url = reverse("club:player_desk", args=[ann.pk])
    client.force_login(director)
    assert 'name="name" maxlength="40" value="Ann"' in client.get(url).content.decode()
    assert f'href="{url}"' in client.get(reverse("club:club")).content.decode()

    answer = client.post(url, {"name": "  Annie Ström "})
    assert answer.status_code == 302 and answer["Location"] == f"{url}?renamed=1"
    ann.refresh_from_db()
    assert (ann.name, ann.folded) == ("Annie Ström", "annie strom")
    line = RosterLog.objects.filter(roster=roster).last()
    assert (line.action, line.user) == ("player_rename", director)
    assert (line.before["name"], line.after["name"]) == ("Ann", "Annie Ström")
    assert "Annie Ström" in client.get(f"{url}?renamed=1").content.decode()
    public = client.get(reverse("club:player", args=[roster.public_token, ann.pk]))
    assert "<h1>Annie Ström</h1>" in public.content.decode()
    assert (
        "Annie Ström" in client.get(f"/s/{season_played.public_token}/season.csv").content.decode()
    )
    # The folded name matches from now on: "ANNIE STROM" at the next night is this player.
    week3 = night(director, "Week 3", season=season_played, names=["ANNIE STROM", "Ben"])
    assert (
        EntrantPlayer.objects.get(entrant__event=week3, entrant__name="ANNIE STROM").player == ann
    )

    lines = RosterLog.objects.count()
    empty = client.post(url, {"name": "   "})
    assert empty.status_code == 200 and "the name is empty" in empty.content.decode()
    clash = client.post(url, {"name": "BEN"})
    assert clash.status_code == 200
    assert "BEN is already on the roster" in clash.content.decode()
    assert 'name="allow_same"' in clash.content.decode()
    ann.refresh_from_db()
    assert ann.name == "Annie Ström" and RosterLog.objects.count() == lines
    # Two people can share a name when the director says so.
    assert client.post(url, {"name": "Ben", "allow_same": "1"}).status_code == 302
    ann.refresh_from_db()
    assert (ann.name, ann.folded) == ("Ben", "ben")
    assert Player.objects.filter(roster=roster, folded="ben").count() == 2

    # Only the roster's own director: another director finds no such player; a player
    # (not staff) may not use the desk.
    other = get_user_model().objects.create_user("other", password="x", is_staff=True)
    client.force_login(other)
    assert client.get(url).status_code == 404
    assert client.post(url, {"name": "Mallory"}).status_code == 404
    client.force_login(get_user_model().objects.create_user("player", password="x"))
    assert client.post(url, {"name": "Mallory"}).status_code == 403
    ann.refresh_from_db()
    assert ann.name == "Ben"
