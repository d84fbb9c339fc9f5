"""Field kinds and entry forms: how a round is entered, below the game kits that use them."""
