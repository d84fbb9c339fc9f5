"""Statements built once per process: the few reads and writes every request runs.

Django builds a query's SQL anew each time it runs it: for a small read by a key, the
building costs several times what the database's answer costs. A ``CompiledRead`` is an
ordinary queryset, written with placeholders (``Hole``) where its values go; its SQL is
built the first time it runs on a database and kept, and each run sends that SQL with
the values of the run. Rows come back as the ORM gives them: the same columns through
the same converters, model instances made by the model's own ``from_db``.

Only plain reads fit: one model's own columns (no ``select_related``), with annotations
set on each instance as the ORM sets them, or ``values_list``. A read that locks
(``select_for_update``) is built the first time it runs, which must then be inside a
transaction, as for the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, Q, QuerySet
from django.db.models.query import ModelIterable
from django.db.models.sql.subqueries import InsertQuery, UpdateQuery
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)

# Where statements are built once: PostgreSQL, what a served Tablescore runs on. Elsewhere
# (SQLite under ``make run``) each statement is the ORM's as usual: SQLite's driver adapts
# values (times, above all) in ways that a statement built once would have to repeat.
BUILT_ONCE_ON = frozenset({"postgresql"})


def built_once_here() -> bool:
    return connections[DEFAULT_DB_ALIAS].vendor in BUILT_ONCE_ON


@dataclass(frozen=True)
class Hole:
    """Where a value of the run goes: a value no real query holds, found in the params."""

    marker: Any


# The values a read is built with, one per place (found again in the built params, each
# must be there once): whole numbers inside every integer column's range, positive ones
# included, so that the ORM keeps each comparison as it is written; text no one types.
HOLES: tuple[Hole, ...] = (
    Hole(2_147_000_001),
    Hole(2_147_000_002),
    Hole(2_147_000_003),
)
TEXT_HOLES: tuple[Hole, ...] = (Hole("\x00hole-1\x00"), Hole("\x00hole-2\x00"))


@dataclass(frozen=True)
class _Built:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[int, ...]  # where each of the run's values goes in ``params``
    converters: tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]
    model: type[Model] | None  # instances of this model, or plain rows
    attnames: tuple[str, ...]
    fields_end: int  # the model's columns come first; each annotation after them
    annotations: tuple[tuple[str, int], ...]  # (name, column) set on each instance
    locks: bool  # select_for_update: only inside a transaction


class CompiledRead(Generic[M]):
    """A read built once from ``build(*holes)`` and run with values in their places."""

    def __init__(self, build: Callable[..., QuerySet[M, Any]], holes: Sequence[Hole]) -> None:
        self.build = build
        self.holes = tuple(holes)
        self._built: dict[tuple[str, str], _Built] = {}

    def _compile(self, connection: BaseDatabaseWrapper) -> _Built:
        queryset = self.build(*(hole.marker for hole in self.holes))
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        slots = []
        for hole in self.holes:
            found = [i for i, value in enumerate(params) if value == hole.marker]
            if len(found) != 1:
                raise ValueError(f"a compiled read must hold each place once: {sql}")
            slots.append(found[0])
        columns = [column for column, _, _ in compiler.select]
        converters = tuple(
            (index, tuple(found), expression)
            for index, (found, expression) in compiler.get_converters(columns).items()
        )
        info = compiler.klass_info
        model: type[Model] | None = None
        attnames: tuple[str, ...] = ()
        annotations: tuple[tuple[str, int], ...] = ()
        if queryset._iterable_class is ModelIterable and info is not None:
            if info.get("related_klass_infos"):
                raise ValueError("a compiled read reads one model's own columns")
            model = info["model"]
            if list(info["select_fields"]) != list(range(len(info["select_fields"]))):
                raise ValueError("a compiled read reads the model's columns first")
            attnames = tuple(columns[i].target.attname for i in info["select_fields"])
            annotations = tuple(compiler.annotation_col_map.items())
        locks = bool(queryset.query.select_for_update)
        return _Built(
            sql,
            tuple(params),
            tuple(slots),
            converters,
            model,
            attnames,
            len(attnames),
            annotations,
            locks,
        )

    def _run(self, values: Sequence[Any], one: bool) -> tuple[_Built, BaseDatabaseWrapper, list]:
        connection = connections[DEFAULT_DB_ALIAS]
        key = (connection.vendor, connection.settings_dict["NAME"])
        built = self._built.get(key)
        if built is None:
            built = self._built[key] = self._compile(connection)
        if built.locks and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(built.params)
        for slot, value in zip(built.slots, values, strict=True):
            params[slot] = value
        with connection.cursor() as cursor:
            cursor.execute(built.sql, params)
            rows = cursor.fetchmany(1) if one else cursor.fetchall()
        if built.converters:
            rows = [self._converted(row, built, connection) for row in rows]
        return built, connection, rows

    @staticmethod
    def _converted(row: Sequence[Any], built: _Built, connection: BaseDatabaseWrapper) -> list:
        values = list(row)
        for index, converters, expression in built.converters:
            value = values[index]
            for converter in converters:
                value = converter(value, expression, connection)
            values[index] = value
        return values

    def rows(self, *values: Any) -> list[Sequence[Any]]:
        """Every row, as ``values_list`` gives them (tuples of the columns)."""
        if not built_once_here():
            return [tuple(row) for row in self.build(*values)]
        return [tuple(row) for row in self._run(values, one=False)[2]]

    def first_row(self, *values: Any) -> Sequence[Any] | None:
        if not built_once_here():
            return next((tuple(row) for row in self.build(*values)[:1]), None)
        rows = self._run(values, one=True)[2]
        return tuple(rows[0]) if rows else None

    def instances(self, *values: Any) -> list[M]:
        """Every row as a model instance."""
        if not built_once_here():
            return list(self.build(*values))
        built, connection, rows = self._run(values, one=False)
        if built.model is None:
            raise TypeError("this read gives rows, not model instances")
        return [self._instance(built, connection, row) for row in rows]

    def first(self, *values: Any) -> M | None:
        if not built_once_here():
            return next(iter(self.build(*values)[:1]), None)
        built, connection, rows = self._run(values, one=True)
        if built.model is None:
            raise TypeError("this read gives rows, not model instances")
        if not rows:
            return None
        return self._instance(built, connection, rows[0])

    @staticmethod
    def _instance(built: _Built, connection: BaseDatabaseWrapper, row: Sequence[Any]) -> M:
        """The model instance of a row, its annotations set on it (as the ORM does)."""
        model: Any = built.model
        instance = model.from_db(connection.alias, built.attnames, row[: built.fields_end])
        for name, column in built.annotations:
            setattr(instance, name, row[column])
        return instance


class CompiledInsert(Generic[M]):
    """``model.objects.create(**values)`` with its INSERT built once per database.

    The row is the one ``save()`` writes: every concrete column, each value made ready by
    its field as ``save()`` makes it (``pre_save``: the ``auto_now`` times; then
    ``get_db_prep_save``), the database's id read back. Only for models whose ``save()``
    adds nothing of its own on insert and that no signal listens to.
    """

    def __init__(self, model: type[M]) -> None:
        self.model = model
        meta = model._meta
        self.fields = [
            f for f in meta.local_concrete_fields if not f.generated and f is not meta.auto_field
        ]
        self._built: dict[tuple[str, str], str] = {}

    def _compile(self, connection: BaseDatabaseWrapper, sample: M) -> str:
        query = InsertQuery(self.model)
        query.insert_values(self.fields, [sample])
        compiler = query.get_compiler(connection=connection)
        compiler.returning_fields = [self.model._meta.pk]
        [(sql, params)] = compiler.as_sql()
        if len(params) != len(self.fields) or sql.count("%s") != len(self.fields):
            raise ValueError(f"an insert to build once takes one plain value a column: {sql}")
        return sql

    def statement(self, connection: BaseDatabaseWrapper, instance: M) -> tuple[str, list[Any]]:
        """The INSERT of ``instance`` (its id returned) and its values, as ``save()``
        makes them ready."""
        key = (connection.vendor, connection.settings_dict["NAME"])
        sql = self._built.get(key)
        if sql is None:
            sql = self._built[key] = self._compile(connection, instance)
        params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in self.fields]
        return sql, params

    def create(self, **values: Any) -> M:
        return self.insert(self.model(**values))

    def insert(self, instance: M) -> M:
        """Write ``instance`` as a new row, as ``save()`` does; its id is set on it."""
        connection = connections[DEFAULT_DB_ALIAS]
        if not built_once_here() or not connection.features.can_return_columns_from_insert:
            instance.save(force_insert=True)
            return instance
        sql, params = self.statement(connection, instance)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
        added(instance, row[0], connection)
        return instance


def added(instance: Model, pk: Any, connection: BaseDatabaseWrapper) -> None:
    """``instance`` is now the row of id ``pk``, as ``save()`` leaves it."""
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias


class CompiledUpdate(Generic[M]):
    """``instance.save(update_fields=fields)`` with its UPDATE built once per database.

    The same values as ``save()`` writes (``pre_save`` of each field, ``auto_now`` times
    included, then ``get_db_prep_save``), and the same refusal when no row was updated.
    Only for models whose ``save()`` adds nothing of its own and that no signal listens to.
    """

    def __init__(self, model: type[M], fields: Sequence[str]) -> None:
        self.model = model
        by_name = {f.name: f for f in model._meta.concrete_fields}
        self.fields: list[Field[Any, Any]] = [by_name[name] for name in fields]
        self._built: dict[tuple[str, str], str] = {}

    def _compile(self, connection: BaseDatabaseWrapper, sample: M) -> str:
        query = UpdateQuery(self.model)
        values: list[Any] = [(f, None, getattr(sample, f.attname)) for f in self.fields]
        query.add_update_fields(values)
        query.add_q(Q(pk=HOLES[0].marker))
        sql, params = query.get_compiler(connection=connection).as_sql()
        where = [i for i, value in enumerate(params) if value == HOLES[0].marker]
        if where != [len(self.fields)] or sql.count("%s") != len(self.fields) + 1:
            raise ValueError(f"an update to build once takes one plain value a column: {sql}")
        return sql

    def statement(self, connection: BaseDatabaseWrapper, instance: M) -> tuple[str, list[Any]]:
        """The UPDATE of ``instance``'s row and its values (its id last)."""
        key = (connection.vendor, connection.settings_dict["NAME"])
        sql = self._built.get(key)
        if sql is None:
            sql = self._built[key] = self._compile(connection, instance)
        params = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in self.fields]
        return sql, [*params, instance.pk]

    def save(self, instance: M) -> None:
        if not built_once_here():
            instance.save(update_fields=[f.name for f in self.fields])
            return
        connection = connections[DEFAULT_DB_ALIAS]
        sql, params = self.statement(connection, instance)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            updated = cursor.rowcount
        if not updated:
            raise DatabaseError(NOTHING_UPDATED)


NOTHING_UPDATED = "Save with update_fields did not affect any rows."


def write_together(
    new: Sequence[tuple[CompiledInsert[Any], Model]],
    update: CompiledUpdate[M],
    changed: M,
) -> None:
    """New rows and one row changed, in one statement: each ``(insert, instance)`` of
    ``new`` as ``insert.insert(instance)`` writes it, then ``update.save(changed)``.

    On PostgreSQL the inserts are data-modifying ``WITH`` parts of the UPDATE, which
    returns each new row's id. The parts share one snapshot, so no part may read what
    another writes: each adds its own row, and the changed row is already locked by the
    caller. When that row is gone the statement returns nothing and the DatabaseError of
    ``CompiledUpdate`` is raised; the rows it added go with the transaction, rolled back.
    Elsewhere each write runs on its own, in that order. Only inside a transaction.
    """
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.get_autocommit():
        raise TransactionManagementError("rows are written together inside a transaction only")
    if not built_once_here() or connection.vendor != "postgresql":
        for insert, instance in new:
            insert.insert(instance)
        update.save(changed)
        return
    parts, params = [], []
    for index, (insert, instance) in enumerate(new):
        sql, values = insert.statement(connection, instance)
        parts.append(f'"added_{index}" AS ({sql})')
        params.extend(values)
    sql, values = update.statement(connection, changed)
    params.extend(values)
    ids = ", ".join(f'(SELECT * FROM "added_{index}")' for index in range(len(new)))
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(parts)} {sql} RETURNING {ids}", params)
        row = cursor.fetchone()
    if row is None:
        raise DatabaseError(NOTHING_UPDATED)
    for (_, instance), pk in zip(new, row, strict=True):
        added(instance, pk, connection)
