"""What the generic tests expect of each game, one module per game (``<game>.py``).

What only a person can say of a game: the words its blank sheet prints, the player
counts its forms and samples are tried at, the players of its pages on a phone. The
generic tests read these through ``tests.games.expected(game)`` for every registered
game, so a new game's missing module or entry fails them naming it.
"""
