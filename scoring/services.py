"""Every write of scoring/: results (versioned submissions), confirmations, settings.

Each write is authorised (tournaments.permissions), checked and scored by the engine
(scoring.engine_bridge), audited (tournaments.audit.record) and invalidates the cached standings
once the transaction commits, so the leaderboard shows it at its next refresh.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError, PermissionDeniedError
from engine import Ending
from tables.models import Table
from tournaments import audit, hooks
from tournaments.models import Player, ScoringSettings, Tournament
from tournaments.permissions import is_organizer, is_referee

from . import engine_bridge as eb
from . import recompute, selectors
from .models import Confirmation, ResultSubmission


def _tournament(table: Table) -> Tournament:
    return table.game.tournament


def context_for(tournament: Tournament) -> eb.Context:
    fmt = tournament.event_format()
    return eb.context_for(fmt.ruleset, dict(fmt.ruleset_overrides), fmt.scoring_system, dict(fmt.club_changes))


def seat_infos(table: Table) -> list[eb.SeatInfo]:
    return [
        eb.SeatInfo(s.number, s.player_id, s.player.display_name if s.player else _("ghost"))
        for s in selectors.seats_of(table)
    ]


def compute(tournament: Tournament, table: Table, kind: str, data: Mapping[str, Any],
            ended_by: str) -> tuple[dict[str, Any], Ending, list[dict[str, Any]]]:
    """(data to store, ending, scores) — the engine's check and scores; raises DomainError."""
    ctx = context_for(tournament)
    seats = seat_infos(table)
    if not seats:
        raise DomainError(_("This table has no seats yet."), rule="T-SIZE")
    if kind == ResultSubmission.Kind.RECORD:
        stored, final = eb.board_from_record(ctx, seats, data.get("record"))
        stored["record"] = data.get("record")
        scores = eb.score_board(ctx, seats, final, eb.written_cards(ctx, stored))
        return stored, final.ended_by, scores
    if kind == ResultSubmission.Kind.SHORT:
        stored = {"players": [dict(p) for p in data.get("players") or []]}
        ended = eb.ending(ended_by)
        return stored, ended, eb.score_short(ctx, seats, stored, ended)
    if kind == ResultSubmission.Kind.BOARD:
        stored = {
            "players": [dict(p) for p in data.get("players") or []],
            "owners": dict(data.get("owners") or {}),
            "armies": dict(data.get("armies") or {}),
        }
        final = eb.final_board(ctx, seats, stored, ended_by)
        return stored, final.ended_by, eb.score_board(ctx, seats, final)
    raise DomainError(_("Unknown kind of result."), field="kind", rule="FORMAT")


def check_sdadata_time(table: Table, ended_by: str) -> None:
    """E-SDADATA: the sdadata closure starts only once the time of the game has expired (E-TIME).
    A table whose clock runs (or is paused) in this app has not reached it: a final board or
    short form ended by sdadata is refused until the clock has expired. A table whose clock was
    never started here (a club's own clock) is taken on the referee's word, and a recorded game
    carries its own expiry, which the engine replays; either is audited like any other result."""
    if ended_by != Ending.SDADATA:
        return
    from tables import clocks

    table.refresh_from_db(fields=["deadline", "paused_at", "expired_marked_at"])
    if table.deadline is not None and not clocks.is_expired(table):
        left = clocks.remaining(table)
        minutes = int(left.total_seconds() // 60) if left is not None else 0
        raise DomainError(
            _("A game ends by sdadata only after its time has expired (E-TIME), and this table's "
              "clock has not expired: %(minutes)s minutes are left. Choose another ending, or "
              "wait for the clock.") % {"minutes": minutes},
            field="ended_by", rule="E-SDADATA",
        )


def _snapshot(sub: ResultSubmission) -> dict[str, Any]:
    return {"version": sub.number, "kind": sub.kind, "ended_by": sub.ended_by, "data": sub.data, "scores": sub.scores}


def _invalidate(tournament: Tournament) -> None:
    """The standings change with this write (``recompute.invalidate``: dropped now and at commit
    without a worker, one recomputation queued at commit with one)."""
    recompute.invalidate(tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        # A corrected result (or format) of a finished event moves the national ranking (K-RANKING,
        # which registers itself: ranking/apps.py).
        hooks.call(hooks.tournament_changed, tournament)


def submit_result(*, actor: Any, table: Table, kind: str, data: Mapping[str, Any], ended_by: str = "",
                  expected_version: int) -> ResultSubmission:
    """Save a new version of ``table``'s result. ``expected_version`` is the version the author
    saw (0: none): if someone saved meanwhile the write is refused (ConflictError, HTTP 409),
    never lost. Entering the same result as someone else's pending one confirms it (double entry)."""
    tournament = _tournament(table)
    if not is_referee(actor, tournament):
        raise PermissionDeniedError(_("Only a referee or an organizer of this tournament may enter results."))
    if kind != ResultSubmission.Kind.RECORD:
        # a recorded game carries its own time expiry, replayed by the engine (E-TIME)
        check_sdadata_time(table, ended_by)
    stored, ended, scores = compute(tournament, table, kind, data, ended_by)
    with transaction.atomic():
        # lock the table row: concurrent saves of the same table queue here
        Table.objects.select_for_update().filter(pk=table.pk).first()
        state = selectors.table_state(table)
        if state.version != expected_version:
            raise ConflictError(
                _("Someone else saved this table's result meanwhile (now version %(now)s, you started "
                  "from version %(seen)s). Reload the page and compare before saving again.")
                % {"now": state.version, "seen": expected_version},
                field="version", rule="VERSION",
            )
        try:
            with transaction.atomic():
                sub = ResultSubmission.objects.create(
                    table=table, tournament=tournament, number=expected_version + 1, kind=kind,
                    ended_by=ended, data=stored, scores=scores, entered_by=actor,
                )
        except IntegrityError:
            raise ConflictError(
                _("Someone else saved this table's result at the same moment. Reload the page."),
                field="version", rule="VERSION",
            ) from None
        previous = state.latest
        audit.record(actor=actor, action="result.submit", obj=sub, tournament=tournament,
                     before=_snapshot(previous) if previous else None, after=_snapshot(sub))
        twin = next((p for p in reversed(state.pending)
                     if p.entered_by_id != actor.pk and p.same_result(sub)), None)
        if twin is not None:
            Confirmation.objects.create(submission=sub, user=actor, double_entry=True,
                                        by_organizer=is_organizer(actor, tournament))
            audit.record(actor=actor, action="result.confirm", obj=sub, tournament=tournament,
                         after={"version": sub.number, "double_entry_of": twin.number})
        _invalidate(tournament)
    return sub


def confirm_result(*, actor: Any, submission: ResultSubmission, player: Player | None = None) -> Confirmation:
    """A second person vouches for the table's latest submission: a referee or organizer of the
    tournament, or (``player``, from their private link) a player seated at that table. The
    author of a submission cannot confirm it."""
    table = submission.table
    tournament = _tournament(table)
    user = actor if getattr(actor, "is_authenticated", False) else None
    staff = user is not None and is_referee(user, tournament)
    if not staff:
        seated = player is not None and table.seats.filter(player=player).exists()
        if not seated:
            raise PermissionDeniedError(
                _("Only a referee, the organizer or a player of this table may confirm its result."))
    if user is not None and submission.entered_by_id == user.pk:
        raise PermissionDeniedError(_("You entered this result: someone else must confirm it."), rule="CONFIRM")
    with transaction.atomic():
        Table.objects.select_for_update().filter(pk=table.pk).first()
        state = selectors.table_state(table)
        if state.latest is None or state.latest.pk != submission.pk:
            raise ConflictError(
                _("A newer version (%(now)s) of this table's result exists; reload and confirm that one.")
                % {"now": state.version}, field="version", rule="VERSION")
        who = {"user": user.pk if user else None, "player": player.pk if player and not staff else None}
        done = submission.confirmations.filter(user=user) if staff else submission.confirmations.filter(player=player)
        if done.exists():
            raise DomainError(_("You already confirmed this result."), rule="CONFIRM")
        conf = Confirmation.objects.create(
            submission=submission, user=user, player=None if staff else player,
            by_organizer=bool(user and is_organizer(user, tournament)),
        )
        audit.record(actor=user, action="result.confirm", obj=submission, tournament=tournament,
                     after={"version": submission.number, **who})
        _invalidate(tournament)
    return conf


def withdraw_correction(*, actor: Any, submission: ResultSubmission) -> selectors.TableState:
    """Take back a correction nobody has confirmed yet: the confirmed result keeps counting and the
    standings lose their "correction pending" mark. Its author or an organizer may; the audit log
    keeps the withdrawn version whole (who, when, before, after). Returns the table's new state."""
    table = submission.table
    tournament = _tournament(table)
    user = actor if getattr(actor, "is_authenticated", False) else None
    if user is None or (submission.entered_by_id != user.pk and not is_organizer(user, tournament)):
        raise PermissionDeniedError(
            _("Only whoever entered this correction or an organizer of the tournament may withdraw it."),
            rule="CONFIRM")
    with transaction.atomic():
        Table.objects.select_for_update().filter(pk=table.pk).first()
        state = selectors.table_state(table)
        if state.confirmed is None or submission.pk not in {s.pk for s in state.pending}:
            raise DomainError(
                _("Version %(v)s is not a correction waiting for confirmation: only those can be withdrawn.")
                % {"v": submission.number}, field="version", rule="CONFIRM")
        audit.record(actor=user, action="result.withdraw", obj=table, tournament=tournament,
                     before=_snapshot(submission) | {"entered_by": submission.entered_by_id},
                     after={"counts": state.confirmed.number})
        submission.delete()  # never counted: the audit entry above keeps all of it
        _invalidate(tournament)
        return selectors.table_state(table)


def _locked_settings(tournament: Tournament) -> ScoringSettings:
    """The tournament's settings row, locked (made when missing), and the format read from it."""
    conf, _created = ScoringSettings.objects.select_for_update().get_or_create(tournament=tournament)
    conf.tournament = tournament  # its save refreshes this instance's format
    tournament._state.fields_cache["scoring_settings"] = conf
    tournament.forget_format()
    return conf


def update_settings(*, actor: Any, tournament: Tournament, publish_unconfirmed: bool | None = None,
                    best_n: int | None = None) -> ScoringSettings:
    if not is_organizer(actor, tournament):
        raise PermissionDeniedError(_("Only an organizer of this tournament may change its scoring settings."))
    if best_n is not None and not 1 <= int(best_n) <= 20:
        raise DomainError(_("Between 1 and 20 games can count."), field="best_n", rule="K-BESTN")
    with transaction.atomic():
        conf = _locked_settings(tournament)
        before = {"publish_unconfirmed": conf.publish_unconfirmed, "best_n": conf.best_n}
        if publish_unconfirmed is not None:
            conf.publish_unconfirmed = bool(publish_unconfirmed)
        if best_n is not None:
            conf.best_n = int(best_n)
        conf.save()
        audit.record(actor=actor, action="scoring.settings", obj=conf, tournament=tournament, before=before,
                     after={"publish_unconfirmed": conf.publish_unconfirmed, "best_n": conf.best_n})
        _invalidate(tournament)
    return conf


def finish_game(*, actor: Any, game: Any) -> Any:
    """Mark a game finished once every table's result is confirmed (organizer only, audited).
    tables/ has no such step: the end of a game is decided by its results."""
    from tables.models import Game

    tournament = game.tournament
    if not is_organizer(actor, tournament):
        raise PermissionDeniedError(_("Only an organizer of this tournament may finish a game."))
    open_tables = [s.table.number for s in selectors.table_states(tournament, game)
                   if s.status != selectors.CONFIRMED]
    if open_tables:
        raise DomainError(_("Tables without a confirmed result: %(tables)s.")
                          % {"tables": ", ".join(str(n) for n in open_tables)}, field="game", rule="CONFIRM")
    from django.utils import timezone

    with transaction.atomic():
        before = game.status
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
        game.refresh_from_db()
        audit.record(actor=actor, action="game.finish", obj=game, tournament=tournament,
                     before={"status": before}, after={"status": game.status})
        _invalidate(tournament)
    return game


# ------------------------------------------------------------------ format presets
def _settings_snapshot(tournament: Tournament) -> dict[str, Any]:
    """The format as the audit log keeps it (the stored chain: the one chosen)."""
    fmt = tournament.event_format()
    conf = getattr(tournament, "scoring_settings", None)
    return {"preset": fmt.preset, "method": fmt.method, "best_n": fmt.best_n,
            "tiebreaks": list(conf.tiebreaks) if conf is not None else [],
            "club_changes": dict(fmt.club_changes), "scoring_system": fmt.scoring_system,
            "games_count": fmt.games_count}


def _table_size_overrides(tournament: Tournament, previous: str, preset: Any) -> dict[str, Any]:
    """The tournament's rule-set overrides with the table sizes the preset's shape needs (T-SIZE:
    2 players in a 1vs1, 3 at a BGL table of 3); the sizes the previous preset had set are taken
    back, an organizer's own overrides kept."""
    from tournaments import formats

    before = formats.get(previous)
    dropped = dict(before.ruleset_overrides) if before is not None else {}
    kept = {k: v for k, v in (tournament.ruleset_overrides or {}).items() if dropped.get(k, object()) != v}
    return {**kept, **preset.ruleset_overrides}


def apply_preset(*, actor: Any, tournament: Tournament, preset_id: str,
                 changes: Mapping[str, Any] | None = None) -> ScoringSettings:
    """Choose a format preset (``tournaments.formats.PRESETS``) for ``tournament`` and change
    what it allows (checked by ``tournaments.formats.check_choice``): ``best_n``,
    ``games_count``, ``chain`` (tie-break metrics) and the club format's numbers (``win_bonus``,
    ``shared_win_bonus``, ``size_factor``). Organizer only, audited. Results already entered
    keep the scores they were given."""
    from tournaments import formats
    from tournaments import services as tournament_services

    if not is_organizer(actor, tournament):
        raise PermissionDeniedError(_("Only an organizer of this tournament may change its scoring settings."))
    choice = formats.check_choice(preset_id, changes)
    preset, best_n, games_count = choice.preset, choice.best_n, choice.games_count
    with transaction.atomic():
        conf = _locked_settings(tournament)
        before = _settings_snapshot(tournament)
        tournament_services.update_tournament(
            tournament, actor=actor, scoring_system=preset.scoring_system, games_count=games_count,
            start_times=list(tournament.start_times or [])[:games_count], format=preset.method,
            ruleset_overrides=_table_size_overrides(tournament, conf.preset, preset),
        )
        conf.preset = preset.id
        conf.best_n = best_n if best_n is not None else 20
        conf.tiebreaks = list(choice.chain)
        conf.club_changes = dict(choice.club_changes)
        conf.save()
        audit.record(actor=actor, action="scoring.preset", obj=conf, tournament=tournament, before=before,
                     after=_settings_snapshot(tournament))
        _invalidate(tournament)
    return conf
