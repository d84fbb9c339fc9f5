"""The one kind of mistake a print request can hold."""


class PrintRequestError(ValueError):
    """A print request a person can fix (an unknown game, too many copies, ...)."""
