"""Pure-Python scoring engines: no Django, no I/O. See base.py for the shared API."""
