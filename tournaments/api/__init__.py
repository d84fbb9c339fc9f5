"""The tournaments' part of the JSON API (config.api adds each router here)."""
