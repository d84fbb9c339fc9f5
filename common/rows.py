"""Thousands of plain rows written at once, without making a model instance for each.

``insert_rows(model, fields, rows)`` inserts tuples of values in the order of ``fields``
(field names; a foreign key by its ``_id`` attribute or its name), one statement sent
for many rows (the driver's ``executemany``). Nothing is returned: for rows whose keys
the caller needs, ``bulk_create`` stays the tool. JSON values are given as Python data.
``set_column(model, field, pairs)`` sets one column of many rows, each to its own value,
by primary key.

What the ORM would add on its own is the caller's to give: defaults, ``auto_now`` times.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from itertools import islice
from typing import Any

from django.db import connection
from django.db.models import Field, JSONField, Model

BATCH = 2000  # rows a statement is sent with at most


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    found = model._meta.get_field(name.removesuffix("_id"))
    if not isinstance(found, Field):
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return found


def _columns(model: type[Model], fields: Sequence[str]) -> tuple[list[str], list[bool]]:
    found = [_field(model, name) for name in fields]
    return [str(f.column) for f in found], [isinstance(f, JSONField) for f in found]


def insert_rows(model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """Insert ``rows`` (tuples in the order of ``fields``); returns how many."""
    columns, json_at = _columns(model, fields)
    quote = connection.ops.quote_name
    statement = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(c) for c in columns)}) "
        f"VALUES ({', '.join(['%s'] * len(columns))})"
    )
    count = 0
    pending = iter(rows)
    with connection.cursor() as cursor:
        while batch := list(islice(pending, BATCH)):
            if any(json_at):
                batch = [
                    tuple(
                        json.dumps(v) if is_json and v is not None else v
                        for v, is_json in zip(row, json_at, strict=True)
                    )
                    for row in batch
                ]
            cursor.executemany(statement, batch)
            count += len(batch)
    return count


def set_column(model: type[Model], field: str, pairs: Sequence[tuple[int, int]]) -> None:
    """Set the whole-number column ``field`` (a foreign key's, say) of each row ``pk`` to
    ``value`` for every (pk, value) of ``pairs``: on PostgreSQL in one statement;
    elsewhere one statement a row, sent as one batch."""
    if not pairs:
        return
    meta = model._meta
    column = str(_field(model, field).column)
    quote = connection.ops.quote_name
    table, key = quote(meta.db_table), quote(str(_field(model, meta.pk.name).column))
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"UPDATE {table} SET {quote(column)} = v.value "
                "FROM unnest(%s::bigint[], %s::bigint[]) AS v(key, value) "
                f"WHERE {table}.{key} = v.key",
                [[pk for pk, _ in pairs], [value for _, value in pairs]],
            )
        else:
            cursor.executemany(
                f"UPDATE {table} SET {quote(column)} = %s WHERE {key} = %s",
                [(value, pk) for pk, value in pairs],
            )
