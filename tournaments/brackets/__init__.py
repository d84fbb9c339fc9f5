"""Brackets: the pure core (core/), the services that keep a stage, its page data and its sheet."""
