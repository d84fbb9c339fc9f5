"""The club: players known across events (the roster), seasons of club nights, and
ratings.

``core`` is plain Python (the season table, the rating bookkeeping, balanced tables,
the history chart); ``adapter`` turns rows into its inputs; ``services`` write, a module
per entity; ``selectors`` read for the pages and the services; the pages are in
``tournaments.web.club``.
"""
