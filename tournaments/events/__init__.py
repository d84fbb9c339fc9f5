"""An event: entrants, rounds, check-in, the log, import and export."""
