"""Scoring's part of the JSON API: its router, schemas, table-token auth and error answers.

The ``NinjaAPI`` itself is composed in ``config.api`` from one router per app.
"""
