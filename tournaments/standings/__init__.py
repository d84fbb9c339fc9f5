"""Standings: the pure ranking (core/) and the adapter that reads an event's tables."""
