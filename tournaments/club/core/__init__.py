"""The seasons core: plain values in, plain values out (no framework).

``table``: a season's table from its nights, by the rule chosen up front.
``ratings``: the bookkeeping of ratings game after game; the rating update itself is
handed in, so a change to an earlier game re-rates from that game on and a rebuild from
nothing gives the same numbers. ``plackett_luce``: that update, OpenSkill's
Plackett-Luce model on plain floats (the outer layer passes it in).
``balance``: seeding and balanced tables by rating. ``chart``: a rating history as SVG.
"""
