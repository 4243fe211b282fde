"""Near-duplicate players decided by a club or federation admin: the pairs that
``merge.duplicate_pairs`` flags (the same national id, or a close name + date of birth), each
with both players' events side by side, and three decisions: merge into one or the other
(``merge.merge_records``: every result, seat, registration and ranking contribution kept), or
"not the same person" (remembered in ``DistinctPlayers``: the pair is not proposed again).

Who decides: a federation admin for every player; a club admin for the players of their clubs (a
player whose club it is, or who registered in a tournament the club organises). A pair with a
player outside those is neither shown nor decided. A club admin decides a pair only when they may
organise every event each player took part in (``privacy.manages_player``, the rule organizers
merge by): a player who also played another organizer's tournament is shown, with why, but only
the federation (or whoever organises all those events) decides, so nobody's results move without
their organizer. Refusals: ``ROLE`` (not an admin, a player of another club's events, a player of
events the admin does not organise), ``IDENTITY`` (not a flagged pair, the same player twice).
Every decision is audited (``player.merge``, ``player.distinct``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import DomainError, PermissionDeniedError
from tournaments import audit, clubs, merge
from tournaments.identity import ProbableDuplicate
from tournaments.models import Club, DistinctPlayers, Player, Registration
from tournaments.privacy import blocking_tournaments, manages_player


def admin_clubs(actor: Any) -> QuerySet[Club] | None:
    """The clubs whose players ``actor`` decides on; None: every player (a federation admin)."""
    if clubs.is_federation_admin(actor):
        return None
    if not clubs._person(actor):
        return Club.objects.none()
    return Club.objects.filter(roles__user=actor).distinct()


def may_decide(actor: Any) -> bool:
    found = admin_clubs(actor)
    return found is None or found.exists()


def players_of(actor: Any) -> QuerySet[Player]:
    found = admin_clubs(actor)
    if found is None:
        return Player.objects.all()
    ids = list(found.values_list("pk", flat=True))
    return Player.objects.filter(Q(club_id__in=ids) | Q(registrations__tournament__club_id__in=ids)).distinct()


def outside_events(actor: Any, player: Player) -> list[str]:
    """The events of ``player`` that ``actor`` does not organise (why they may not decide on
    that record; none for a federation admin)."""
    if admin_clubs(actor) is None or manages_player(actor, player):
        return []
    return sorted(t.name for t in blocking_tournaments(actor, player))


def _require(actor: Any, *player_ids: int) -> None:
    if not may_decide(actor):
        raise PermissionDeniedError(_("Only a club admin or a federation admin may do this."), rule="ROLE")
    mine = set(players_of(actor).filter(pk__in=player_ids).values_list("pk", flat=True))
    if any(pk not in mine for pk in player_ids if Player.objects.filter(pk=pk).exists()):
        raise PermissionDeniedError(
            _("These players belong to another club's events: that club or the federation decides."),
            field="players", rule="ROLE")
    for player in Player.objects.filter(pk__in=player_ids).order_by("pk"):
        events = outside_events(actor, player)
        if events:
            raise PermissionDeniedError(refusal(player, events) + " " + _("Nothing was changed."),
                                        field="players", rule="ROLE")


def refusal(player: Player, events: list[str]) -> str:
    """Why a club admin may not decide on ``player``'s record: ``events`` they do not organise."""
    return _("%(name)s also played events you do not organise (%(events)s): only the federation, or "
             "whoever organises all of them, may decide on this record.") % {
        "name": player.full_name, "events": ", ".join(events)}


@dataclass
class Pair:
    first: Player
    second: Player
    why: ProbableDuplicate
    first_events: list[Registration]
    second_events: list[Registration]
    refused: str = ""  # why the viewer may not decide this pair (empty: they may)

    @property
    def side_by_side(self) -> list[tuple[Player, list[Registration]]]:
        return [(self.first, self.first_events), (self.second, self.second_events)]

    @property
    def reason(self) -> str:
        if self.first.national_id and self.first.national_id == self.second.national_id:
            return _("the same national id")
        if self.why.same:
            return _("the same name, surname and date of birth")
        return ngettext("a name and date of birth %(n)s edit apart", "a name and date of birth %(n)s edits apart",
                        self.why.distance) % {"n": self.why.distance}


Found = tuple[int, int, ProbableDuplicate]  # the two players' ids (lower first) and why


def flagged_pairs(actor: Any) -> list[Found]:
    """The flagged pairs among the players ``actor`` decides on, closest first, less those
    already decided to be two people: ids only (a national instance has 10,000 players; one page
    of pairs is read whole, see :func:`with_events`)."""
    if not may_decide(actor):
        return []
    decided = set(DistinctPlayers.objects.values_list("first_id", "second_id"))
    people = players_of(actor).values_list("pk", "first_name", "last_name", "birth_date", "national_id")
    return [(a, b, d) for a, b, d in _detected(list(people)) if (a, b) not in decided]


def _detected(people: list[merge.Identity]) -> list[Found]:
    """``merge.duplicate_ids(people)``, kept in the cache under a digest of every identity the
    detection reads: the admin's next page, or the list again after a decision, reuses it, and
    any change to a name, date of birth or national id (a player added, merged, corrected) is a
    new digest, so nothing stale is shown. The detection takes most of a second at 10,000 players."""
    digest = hashlib.sha256(repr(sorted(people)).encode()).hexdigest()
    key = f"near-duplicates:{merge.MAX_DISTANCE}:{digest}"
    found = cache.get(key)
    if found is None:
        found = merge.duplicate_ids(people)
        cache.set(key, found, 3600)
    return found


def with_events(found: Iterable[Found], actor: Any = None) -> list[Pair]:
    """The pairs ``found`` with both players and their events side by side (one query for the
    players, one for their events) and, with ``actor``, why they may not decide a pair."""
    found = list(found)
    ids = {pk for a, b, _d in found for pk in (a, b)}
    people = Player.objects.select_related("club").in_bulk(ids)
    events: dict[int, list[Registration]] = {pk: [] for pk in ids}
    for reg in (Registration.objects.filter(player_id__in=ids).select_related("tournament__club")
                .order_by("-tournament__date", "tournament__name")):
        events[reg.player_id].append(reg)
    out = [Pair(people[a], people[b], d, events[a], events[b]) for a, b, d in found]
    for pair in out if actor is not None else ():
        blocked = [(p, outside_events(actor, p)) for p in (pair.first, pair.second)]
        pair.refused = next((refusal(p, e) for p, e in blocked if e), "")
    return out


def pairs(actor: Any) -> list[Pair]:
    """Every flagged pair ``actor`` decides on, with both players' events."""
    return with_events(flagged_pairs(actor), actor)


def merge_pair(*, keep: int, drop: int, actor: Any) -> Player:
    """``drop`` merged into ``keep`` (both players ``actor`` decides on)."""
    def allowed(kept: Player, gone: Player) -> None:
        _require(actor, kept.pk, gone.pk)

    _require(actor, keep, drop)  # before anything is locked: a refusal reads nothing else
    return merge.merge_records(keep=keep, drop=drop, actor=actor, tournament=None, allowed=allowed)


def not_the_same(*, first: int, second: int, actor: Any) -> DistinctPlayers:
    """Remember that ``first`` and ``second`` are two people (a flagged pair)."""
    _require(actor, first, second)
    if first == second:
        raise DomainError(_("Choose two different players."), field="players", rule="IDENTITY")
    a, b = sorted((first, second))
    found = Player.objects.in_bulk([a, b])
    if len(found) != 2:
        raise DomainError(_("This player does not exist."), field="players", rule="IDENTITY")
    if b not in {d.player_id for _p, d in merge.duplicates_of(found[a])}:
        raise DomainError(_("These two players are not flagged as probable duplicates."), field="players",
                          rule="IDENTITY")
    try:
        with transaction.atomic():
            decision = DistinctPlayers.objects.create(first_id=a, second_id=b, decided_by=actor)
            audit.record(actor=actor, action="player.distinct", obj=decision, tournament=None,
                         after={"first": {"id": a, "name": found[a].full_name},
                                "second": {"id": b, "name": found[b].full_name}})
    except IntegrityError:  # decided meanwhile by someone else: the same decision
        decision = DistinctPlayers.objects.get(first_id=a, second_id=b)
    return decision
