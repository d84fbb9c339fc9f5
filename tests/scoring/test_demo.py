import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from scoring.models import Game
from tests.games import GAMES

pytestmark = pytest.mark.django_db


def test_demo_data_loads_once(settings, tmp_path, capsys):
    settings.BASE_DIR = tmp_path
    call_command("demo", "--base-url", "http://127.0.0.1:8123/")
    first = capsys.readouterr().out
    assert "http://127.0.0.1:8123/t/" in first and "http://127.0.0.1:8123/admin/" in first
    call_command("demo")
    second = capsys.readouterr().out
    assert sorted(Game.objects.values_list("kind", flat=True)) == sorted(GAMES)
    assert all(game.rounds.exists() and game.status == "in_progress" for game in Game.objects.all())
    director = get_user_model().objects.get(username="director")
    password = first.split("password ")[1].split()[0]
    assert director.check_password(password) and director.is_staff
    assert f"password {password}" in second  # the same login is shown again
