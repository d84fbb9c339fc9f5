"""The JSON API of a player's own link: check in, their seat, drop out (``router``)."""
