"""A player's own link (/me/<private token>/) and the desk's card about players' links."""
