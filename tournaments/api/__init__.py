"""The tournaments' part of the JSON API (config.api adds each router here): a player's
own link (check in, their seat, drop out) and an event's sign-up."""
