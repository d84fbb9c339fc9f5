"""A bracket stage made: from the event's entrants, or the cut after qualifying rounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from scoring.engines.base import N_
from tournaments.brackets.core import (
    Bracket,
    BracketUserError,
    DrawRule,
    GrandFinal,
    Seeding,
    cut_to_top,
    double_elimination,
    seed_field,
    single_elimination,
    table_elimination,
)
from tournaments.brackets.selectors import (
    playing_entrants,
    qualifying_waiting,
    shared_tables,
    stage_settings_problems,
    stage_table_rules,
    standings_order,
    two_team_problems,
)
from tournaments.brackets.services.matches import bracket_refusal, stage_advance_locked
from tournaments.club.core.balance import seed_order
from tournaments.club.rated_seating import entrant_strength
from tournaments.errors import TournamentError, listed
from tournaments.models import BracketStage, Event, TournamentRound
from tournaments.seating import adapter as seating
from tournaments.services.change import ActingUser, bump, event_locked_open, event_log

# --------------------------------------------------------------------------- creating a stage


def stage_create(
    *,
    event: Event,
    kind: str,
    seeding: str = BracketStage.Seeding.STANDINGS,
    draw_rule: str = BracketStage.DrawRule.HIGHER_SEED,
    order: Sequence[int] | None = None,
    entrants: Sequence[int] | None = None,
    third_place: bool = False,
    grand_final: str = GrandFinal.RESET,
    table_size: int | None = None,
    advance: int = 1,
    final_table_size: int | None = None,
    placement_tables: bool = False,
    seed: int | None = None,
    user: ActingUser = None,
    cut: Mapping[str, Any] | None = None,
) -> BracketStage:
    """The event's bracket, its first matches' games created, ready to play.

    ``entrants`` (ids) defaults to everyone still playing; ``order`` is the director's seed
    order (ids, best first) for seeding by hand. The standings seeding takes the
    qualifying standings when there were rounds, else the order of registration.
    """
    with transaction.atomic():
        event = event_locked_open(event)
        if BracketStage.objects.filter(event=event).exists():
            raise TournamentError.single(N_("this event already has its bracket"), field="kind")
        problems = stage_settings_problems(
            kind=kind, seeding=seeding, draw_rule=draw_rule, grand_final=grand_final
        )
        if problems:
            raise TournamentError(problems)
        pool = playing_entrants(event)
        by_id = {e.pk: e for e in event.entrants.all()}
        if entrants is not None:
            unknown = [i for i in entrants if i not in by_id]
            if unknown:
                raise TournamentError.single(
                    N_("not entered in this event: {ids}"),
                    field="entrants",
                    ids=", ".join(map(str, unknown)),
                )
            pool = [by_id[i] for i in entrants]
        if len(pool) < 2:
            raise TournamentError.single(
                N_("a bracket needs at least two entrants"), field="entrants"
            )
        ids = [e.pk for e in pool]
        if seeding == BracketStage.Seeding.STANDINGS and event.rounds.exists():
            standing = {
                entrant_id: place for place, entrant_id in enumerate(standings_order(event))
            }
            ids.sort(key=lambda i: standing.get(i, len(standing)))
        if seeding == BracketStage.Seeding.RATING:  # by rating: the order as given
            ids = seed_order(ids, entrant_strength(event))
        stage_seed = event.seed if seed is None else seed
        try:
            seeds = seed_field(
                [str(i) for i in ids],
                Seeding(seeding) if seeding != BracketStage.Seeding.RATING else Seeding.STANDINGS,
                seed=stage_seed,
                order=[str(i) for i in order] if order is not None else None,
            )
        except BracketUserError as error:
            raise bracket_refusal(error) from None
        members = {len(e.members) for e in pool}
        options: dict[str, Any]
        history: list[list[str]] = []
        if kind == BracketStage.Kind.TABLES:
            if any(members - {0}):
                raise TournamentError.single(
                    N_("table elimination is for players on their own, not fixed teams"),
                    field="kind",
                )
            policy = seating.table_policy(event.game, options=event.options)
            options = {
                "table_size": table_size or policy.preferred,
                "advance": advance,
                "final_table_size": final_table_size,
                "placement_tables": placement_tables,
                "legal_sizes": list(policy.legal_sizes),
            }
            history = shared_tables(event, set(ids))
            try:
                bracket: Bracket = table_elimination(
                    seeds,
                    stage_table_rules(options),
                    placement_tables=placement_tables,
                    draw_rule=DrawRule(draw_rule),
                    seed=stage_seed,
                    history=[(a, b) for a, b in history],
                )
            except BracketUserError as error:
                raise bracket_refusal(error) from None
        else:
            if len(members) != 1:
                raise TournamentError.single(
                    N_("every entrant of a two-team bracket must be a team of as many players"),
                    field="entrants",
                )
            if problems := two_team_problems(event, members.pop()):
                raise TournamentError(problems)
            options = {"third_place": third_place, "grand_final": grand_final}
            try:
                if kind == BracketStage.Kind.SINGLE:
                    bracket = single_elimination(
                        seeds,
                        third_place=third_place,
                        draw_rule=DrawRule(draw_rule),
                        seed=stage_seed,
                    )
                else:
                    bracket = double_elimination(
                        seeds,
                        grand_final=GrandFinal(grand_final),
                        draw_rule=DrawRule(draw_rule),
                        seed=stage_seed,
                    )
            except BracketUserError as error:
                raise bracket_refusal(error) from None
        stage = BracketStage.objects.create(
            event=event,
            kind=kind,
            seeding=seeding,
            draw_rule=draw_rule,
            seeds=list(bracket.seeds),
            options=options,
            seed=stage_seed,
            history=history,
            cut=dict(cut or {}),
        )
        if event.status == Event.Status.REGISTRATION:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status", "updated_at"])
        event_log(
            event,
            "bracket_create",
            user,
            after={
                "kind": kind,
                "seeding": seeding,
                "draw_rule": draw_rule,
                "seeds": list(bracket.seeds),
                "options": options,
                "cut": stage.cut,
            },
        )
        stage_advance_locked(stage, user=user)
        bump(event)
    return stage


def stage_cut(
    *,
    event: Event,
    size: int,
    kind: str,
    user: ActingUser = None,
    **settings: Any,
) -> BracketStage:
    """A two-stage event's cut: the top ``size`` of the qualifying standings go on to the
    bracket, seeded in standings order (``settings`` as ``stage_create`` takes them)."""
    if not event.rounds.filter(status=TournamentRound.Status.PUBLISHED).exists():
        raise TournamentError.single(
            N_("a cut follows qualifying rounds: play one first"), field="cut"
        )
    waiting = qualifying_waiting(event)
    if waiting:
        raise TournamentError.single(
            N_("the cut waits for every qualifying table: {tables}"),
            field="cut",
            tables=listed(waiting),
        )
    order = [i for i in standings_order(event) if i in {e.pk for e in playing_entrants(event)}]
    try:
        chosen = cut_to_top([str(i) for i in order], int(size))
    except BracketUserError as error:
        raise bracket_refusal(error) from None
    except (TypeError, ValueError):
        raise TournamentError.single(N_("the cut is a number of entrants"), field="cut") from None
    settings.setdefault("seeding", BracketStage.Seeding.STANDINGS)
    return stage_create(
        event=event,
        kind=kind,
        entrants=[int(i) for i in chosen.qualified],
        user=user,
        cut={"size": int(size), "out": [int(i) for i in chosen.out]},
        **settings,
    )
