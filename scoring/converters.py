"""Path converters for Tablescore's URLs."""

import re


class TableTokenConverter:
    """Table tokens are url-safe base64: anything else is no table (404), never a query."""

    regex = r"[-\w]{16,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def is_table_token(value: str) -> bool:
    """Whether ``value`` could be a table token at all (before any database lookup)."""
    return re.fullmatch(TableTokenConverter.regex, value) is not None
