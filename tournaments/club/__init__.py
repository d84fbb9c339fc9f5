"""Players known across events, seasons of club nights, and ratings.

``core`` is plain Python (the season table, the rating bookkeeping, balanced tables,
the history chart); ``adapter`` turns rows into its inputs; ``services`` write;
``selectors`` read for the pages; ``views`` are the desk's and the public pages.
"""
