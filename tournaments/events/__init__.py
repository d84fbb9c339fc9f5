"""An event's own facts and changes: entrants, rounds, availability, directors, the log."""
