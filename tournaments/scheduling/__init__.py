"""Pure-Python seating and brackets for multi-table events: no Django, no I/O."""
