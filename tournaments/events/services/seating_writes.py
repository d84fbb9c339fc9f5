"""A seated round written as rows: its tables, seats and byes, thousands at once.

The seating adapter turns rows into the core's plain inputs and the core's plan back
into plain values; writing them is the services' part (here), inside the caller's
transaction. A 10,000-player round is 2,500 tables and 10,000 seats: on PostgreSQL the
tables are made in one statement that numbers them and the seats are streamed with
COPY; elsewhere (SQLite in development) they go as batches of plain rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection
from django.db.models import Field, Model

from common.rows import insert_rows
from tournaments.models import Bye, Table, TableSeat, TournamentRound
from tournaments.seating.adapter import unslot
from tournaments.seating.core import RoundPlan


def _column(model: type[Model], name: str) -> str:
    found = model._meta.get_field(name)
    if not isinstance(found, Field):
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return str(found.column)


def _tables_insert(round_: TournamentRound, count: int) -> dict[int, int]:
    """Tables 1..``count`` of ``round_`` (which holds none yet): number -> id."""
    if connection.vendor == "postgresql":
        quote = connection.ops.quote_name
        meta = Table._meta
        round_column = quote(_column(Table, "round"))
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {quote(meta.db_table)} ({round_column}, {quote('number')}) "
                f"SELECT %s, n FROM generate_series(1, %s) AS n RETURNING {quote('number')}, "
                f"{quote(str(meta.pk.column))}",
                [round_.pk, count],
            )
            return dict(cursor.fetchall())
    insert_rows(Table, ("round_id", "number"), ((round_.pk, n + 1) for n in range(count)))
    return dict(round_.tables.values_list("number", "pk"))


def _seats_insert(rows: Sequence[tuple[int, int, int, int]]) -> None:
    """Seat rows (table id, seat, entrant id, member)."""
    fields = ("table_id", "seat", "entrant_id", "member")
    if connection.vendor != "postgresql":
        insert_rows(TableSeat, fields, rows)
        return
    quote = connection.ops.quote_name
    meta = TableSeat._meta
    columns = ", ".join(quote(_column(TableSeat, f.removesuffix("_id"))) for f in fields)
    with connection.cursor() as cursor:
        raw = cursor.cursor  # the driver's own cursor: COPY is not in Django's API
        with raw.copy(f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


def seating_plan_save(*, round_: TournamentRound, plan: RoundPlan) -> None:
    """Write the plan's tables, seats (in seat order) and byes under ``round_`` (which
    holds none yet), and its report."""
    table_ids = _tables_insert(round_, len(plan.tables))
    _seats_insert(
        [
            (table_ids[index + 1], seat, *unslot(value))
            for index, seated in enumerate(plan.tables)
            for seat, value in enumerate(seated)
        ]
    )
    bye_entrants = sorted({unslot(value)[0] for value in plan.byes})
    Bye.objects.bulk_create(Bye(round=round_, entrant_id=e) for e in bye_entrants)
    round_.report = plan.report.as_dict()
    round_.save(update_fields=["report"])
