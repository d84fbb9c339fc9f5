"""The players' pages of an event, under /e/<public token>/."""
