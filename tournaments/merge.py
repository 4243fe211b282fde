"""Merging two records of the same person (flagged by :mod:`tournaments.identity`), never
automatically: the organizer picks which player stays. Registrations, check-ins, seats, access
links, confirmations and the player ids inside stored results move to the player who stays;
blank fields of that player are filled from the other; the other record is deleted. One
transaction, audited.

An organizer may merge a player registered in their tournament with a probable duplicate only
when they manage both records (``privacy.manages_player``: staff, or an organizer of every
tournament each is in); probable duplicates are listed only among such records, so nobody
learns anything of a record they may not touch. Two players seated in the same game (they
cannot be one person) are refused.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import ForeignKey, Q
from django.utils.translation import gettext as _

from common.errors import DomainError, PermissionDeniedError

from . import audit, hooks
from .identity import (
    MAX_DISTANCE,
    Candidate,
    NameIndex,
    ProbableDuplicate,
    identity_key,
    levenshtein,
    probable_duplicates,
)
from .models import CheckIn, DistinctPlayers, Player, Registration, Tournament
from .services import require_organizer

FILLED = ("nickname", "email", "birth_date", "club", "national_id")


@dataclass(frozen=True)
class Flagged:
    player: Player
    candidates: list[tuple[Player, ProbableDuplicate]]


def duplicates_of(player: Player, actor: Any = None) -> list[tuple[Player, ProbableDuplicate]]:
    """Known players that are probably ``player`` (closest first); with ``actor``, only those
    ``actor`` manages (and none when they do not manage ``player`` itself)."""
    from .privacy import manages_player

    if actor is not None and not manages_player(actor, player):
        return []
    known = [Candidate(p.pk, p.first_name, p.last_name, p.birth_date)
             for p in Player.objects.exclude(pk=player.pk).only("first_name", "last_name", "birth_date")]
    found = probable_duplicates(player.first_name, player.last_name, player.birth_date, known)
    national_id = player.national_id
    if national_id:  # the same national id is the same person whatever the spelling
        same = Player.objects.filter(national_id=national_id).exclude(pk=player.pk).values_list("pk", flat=True)
        found = [ProbableDuplicate(pk, 0, True) for pk in same] + [d for d in found if d.player_id not in same]
    people = Player.objects.select_related("club").in_bulk([d.player_id for d in found])
    return [(people[d.player_id], d) for d in found if d.player_id in people
            and (actor is None or manages_player(actor, people[d.player_id]))]


def flagged(tournament: Tournament, actor: Any = None) -> list[Flagged]:
    """Every player registered in ``tournament`` with probable duplicates (among the records
    ``actor`` manages, when given)."""
    out = []
    for reg in Registration.objects.filter(tournament=tournament).select_related("player__club").order_by("pk"):
        candidates = duplicates_of(reg.player, actor)
        if candidates:
            out.append(Flagged(reg.player, candidates))
    return out


def duplicate_pairs(players: Iterable[Player]) -> list[tuple[Player, Player, ProbableDuplicate]]:
    """:func:`duplicate_ids` of ``players``, with the players themselves."""
    people = {p.pk: p for p in players}
    found = duplicate_ids((p.pk, p.first_name, p.last_name, p.birth_date, p.national_id)
                          for p in people.values())
    return [(people[a], people[b], d) for a, b, d in found]


Identity = tuple[int, str, str, Any, str]  # a player's id, name, surname, date of birth, national id


def duplicate_ids(identities: Iterable[Identity]) -> list[tuple[int, int, ProbableDuplicate]]:
    """Every pair among the players ``identities`` describe that ``duplicates_of`` would flag (the
    same national id, or ``identity.probable_duplicates``), each once as (lower id, higher id,
    why), closest first. Each player is compared only with those the detection could flag: a
    player with a date of birth with the same date or the same name (two different dates of birth
    are never the same person otherwise); a player without one with the names a few edits away,
    found through ``identity.NameIndex`` rather than by comparing every player (a tenth of 3,000
    players undated took half a minute so). Plain rows, not model instances: a national
    instance's 10,000 players are read at once."""
    cands: dict[int, Candidate] = {}
    names: dict[int, str] = {}
    by_date: dict[Any, list[Candidate]] = defaultdict(list)
    by_name: dict[str, list[Candidate]] = defaultdict(list)
    by_nid: dict[str, list[int]] = defaultdict(list)
    for pk, first, last, born, national_id in identities:
        c = cands[pk] = Candidate(pk, first, last, born)
        names[pk] = identity_key(first, last, None)
        by_date[born].append(c)
        by_name[names[pk]].append(c)
        if national_id:
            by_nid[national_id].append(pk)
    found: dict[tuple[int, int], ProbableDuplicate] = {}
    for pks in by_nid.values():  # the same national id is the same person whatever the spelling
        for a in pks:
            for b in pks:
                if a < b:
                    found[(a, b)] = ProbableDuplicate(b, 0, True)
    for pk, c in cands.items():  # dated: the same date or the same name (the undated come below)
        if c.birth_date is not None:
            near = {x.player_id: x for x in (*by_date[c.birth_date], *by_name[names[pk]]) if x.player_id > pk}
            for d in probable_duplicates(c.first_name, c.last_name, c.birth_date, near.values()):
                found.setdefault((pk, d.player_id), d)
    # undated: anyone whose name is close, dated or not; with one side undated the detection
    # measures name against name, so each two names are measured once whoever bears them
    undated: dict[str, list[int]] = defaultdict(list)
    for c in by_date[None]:
        undated[names[c.player_id]].append(c.player_id)
    distinct = sorted(by_name)
    index = NameIndex(enumerate(distinct)) if undated else NameIndex(())
    for name, bearers in undated.items():
        for other in index.near(name):
            d = levenshtein(name, distinct[other], MAX_DISTANCE)
            if d <= MAX_DISTANCE:
                _pair_up(found, bearers, by_name[distinct[other]], d)
    # closest first, then by the players' ids: sorted as plain tuples (50,000 pairs at 10,000 players)
    order = sorted((d.distance, a, b) for (a, b), d in found.items())
    return [(a, b, found[(a, b)]) for _d, a, b in order]


def _pair_up(found: dict[tuple[int, int], ProbableDuplicate], bearers: list[int],
             others: list[Candidate], distance: int) -> None:
    """Flag each of ``bearers`` (undated) with each of ``others``, ``distance`` edits apart,
    unless the pair is flagged already (a closer reason found first stays)."""
    for pk in bearers:
        for x in others:
            if x.player_id != pk:
                key = (pk, x.player_id) if pk < x.player_id else (x.player_id, pk)
                if key not in found:
                    found[key] = ProbableDuplicate(key[1], distance, distance == 0)


def _identity(p: Player) -> dict[str, Any]:
    return {"id": p.pk, "name": p.full_name, "nickname": p.nickname,
            "club": p.club.name if p.club_id else "", "national_id": p.national_id}


def merge_players(tournament: Tournament, *, keep: int, drop: int, actor: Any) -> Player:
    """Merge player ``drop`` into player ``keep`` (see the module's docstring)."""
    require_organizer(actor, tournament)
    from .privacy import manages_player

    def allowed(kept: Player, gone: Player) -> None:
        if not Registration.objects.filter(tournament=tournament, player_id__in=[keep, drop]).exists():
            raise DomainError(_("Neither player is registered in this tournament."), field="drop",
                              rule="IDENTITY")
        for field, who in (("keep", kept), ("drop", gone)):
            if not manages_player(actor, who):
                raise PermissionDeniedError(
                    _("Only staff, or an organizer of every tournament this player took part in, "
                      "may merge their record."), field=field, rule="PRIVACY")

    return merge_records(keep=keep, drop=drop, actor=actor, tournament=tournament, allowed=allowed)


def merge_records(*, keep: int, drop: int, actor: Any, tournament: Tournament | None,
                  allowed: Callable[[Player, Player], None]) -> Player:
    """Merge player ``drop`` into player ``keep`` once ``allowed(kept, gone)`` (the caller's
    permission check, run on the locked rows) has not refused: only a flagged pair, never two
    players seated in the same game. Audited (``player.merge``) on ``tournament`` when given."""
    if keep == drop:
        raise DomainError(_("Choose two different players."), field="drop", rule="IDENTITY")
    with transaction.atomic():
        found = Player.objects.select_for_update(of=("self",)).select_related("club").in_bulk([keep, drop])
        if keep not in found or drop not in found:
            raise DomainError(_("This player does not exist."), field="keep" if keep not in found else "drop",
                              rule="IDENTITY")
        kept, gone = found[keep], found[drop]
        allowed(kept, gone)
        if gone.pk not in {d.player_id for _p, d in duplicates_of(kept)}:
            raise DomainError(_("These two players are not flagged as probable duplicates."), field="drop",
                              rule="IDENTITY")
        hooks.call(hooks.merge_refusals, keep, drop)
        before = {"keep": _identity(kept), "drop": _identity(gone)}
        # decisions that the dropped record is not someone: its own, gone with it
        DistinctPlayers.objects.filter(Q(first_id=drop) | Q(second_id=drop)).delete()
        # registrations: one per tournament; the dropped one's check-ins go to the kept one
        for reg in Registration.objects.filter(player_id=drop):
            twin = Registration.objects.filter(tournament_id=reg.tournament_id, player_id=keep).first()
            if twin is None:
                Registration.objects.filter(pk=reg.pk).update(player_id=keep)
                continue
            have = set(CheckIn.objects.filter(registration=twin).values_list("game_number", flat=True))
            CheckIn.objects.filter(registration=reg).exclude(game_number__in=have).update(registration=twin)
            CheckIn.objects.filter(registration=reg).delete()
            reg.delete()
        # every other reference to the player (seats, links, confirmations…)
        for f in Player._meta.get_fields(include_hidden=True):
            if f.is_relation and f.auto_created and not f.concrete and isinstance(f.remote_field, ForeignKey):
                model = f.related_model
                if model is not Registration:
                    model._default_manager.filter(**{f.remote_field.name: drop}).update(
                        **{f.remote_field.name: keep})
        hooks.call(hooks.players_merged, drop, keep)  # stored results, national ranking, standings
        for name in FILLED:
            if not getattr(kept, name) and getattr(gone, name):
                setattr(kept, name, getattr(gone, name))
        gone.delete()  # first: the kept player may take over its unique national id
        kept.save()
        audit.record(actor=actor, action="player.merge", obj=kept, tournament=tournament, before=before,
                     after={"keep": _identity(kept)})
    return kept

