from django.shortcuts import get_object_or_404, render

from scoring.models import Game
from scoring.selectors import game_score


def table(request, token: str):
    game = get_object_or_404(Game, table_token=token)
    return render(request, "scoring/table.html", {"game": game, "score": game_score(game)})
