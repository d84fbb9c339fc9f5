"""Seating: the pure planner (core/) and the adapter that feeds it an event's rows."""
