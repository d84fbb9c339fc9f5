"""The seasons core: plain values in, plain values out (no framework).

``table``: a season's table from its nights, by the rule chosen up front.
``ratings``: the bookkeeping of ratings game after game; the rating update itself is
handed in (the outer layer passes OpenSkill's), so a change to an earlier game
re-rates from that game on and a rebuild from nothing gives the same numbers.
``balance``: seeding and balanced tables by rating. ``chart``: a rating history as SVG.
"""
