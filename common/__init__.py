"""The ground floor: what every app may use (throttles, task publishing, the health record)."""
