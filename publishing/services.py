"""Publishing a tournament run on a hall laptop to the clubs' shared instance (docs/publishing.md).

Laptop side: :func:`content_of` (what is sent) and :func:`prepare` (the laptop's stable id
and sequence number). Instance side: club tokens (:func:`issue_token`, :func:`authenticate`,
:func:`revoke_tokens`) and :func:`receive`, which stores the copy in one transaction, the copy
being made a real tournament of the instance in that same transaction by ``copies.materialise``,
registered at start-up with :func:`set_materialiser` (``publishing.apps``; copies reads this module).

What is sent: the tournament (name, dates, format, scoring system, rule set, status), the
format's choices (preset, tie-break chain, games that count) and the event's id in the national
ranking, its players by public name and club
only (never e-mail, date of birth or national id: the instance is entitled to what the public
standings show), every game with its tables, seats and counting result, and the standings as
computed on the laptop. Player keys are the laptop's opaque ids, used only inside the payload.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError, PermissionDeniedError, Refusal
from engine import exact
from tournaments.models import Club, Player, Registration, Tournament

from . import schema, selectors
from .models import ClubToken, PublishedTournament, PublishState, digest_of

FORMAT = schema.FORMAT
TOKEN_START = "rkp_"


class Unauthorised(DomainError):
    kind = Refusal.UNAUTHORISED


class TooLarge(DomainError):
    kind = Refusal.TOO_LARGE


# --- tokens (instance side) -------------------------------------------------------------------

def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def issue_token(club: Club) -> str:
    """A new token for ``club``: returned once, stored only as its hash."""
    prefix = secrets.token_hex(5)
    token = f"{TOKEN_START}{prefix}_{secrets.token_urlsafe(32)}"
    ClubToken.objects.create(club=club, prefix=prefix, token_hash=_hash(token))
    return token


def revoke_tokens(club: Club, prefix: str | None = None) -> int:
    qs = ClubToken.objects.filter(club=club, revoked_at__isnull=True)
    if prefix:
        qs = qs.filter(prefix=prefix)
    return qs.update(revoked_at=timezone.now())


_DUMMY = _hash("no token")


def authenticate(header: str | None) -> ClubToken:
    """The live token named by an ``Authorization: Bearer …`` header, or :class:`Unauthorised`.
    The hash is always compared in constant time (also when the prefix is unknown), so the
    answer's timing does not tell how much of a guess was right."""
    refused = Unauthorised(_("Missing, wrong or revoked publishing token."), field="Authorization",
                           rule="PUBLISH-TOKEN")
    if not header or not header.startswith("Bearer "):
        raise refused
    token = header[len("Bearer "):].strip()
    prefix = token[len(TOKEN_START):].split("_", 1)[0] if token.startswith(TOKEN_START) else ""
    row = ClubToken.objects.select_related("club").filter(prefix=prefix).first() if prefix else None
    expected = row.token_hash if row is not None else _DUMMY
    ok = hmac.compare_digest(_hash(token), expected)
    if not ok or row is None or row.revoked_at is not None:
        raise refused
    ClubToken.objects.filter(pk=row.pk).update(last_used_at=timezone.now())
    return row


# --- payload (laptop side) ----------------------------------------------------------------------

def content_of(tournament: Tournament) -> dict[str, Any]:
    """What the instance receives about ``tournament`` (no personal data beyond public names).
    Its games, seats, results and standings come from tables and scoring (``selectors.play_of``)."""
    play = selectors.play_of(tournament)
    player_ids = set(Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    player_ids |= play["seated"]
    players = Player.objects.filter(pk__in=player_ids).select_related("club").order_by("pk")
    fmt = tournament.event_format()
    content = {
        "tournament": {
            "name": tournament.name,
            "format": fmt.method,
            "status": tournament.status,
            "date": tournament.date.isoformat(),
            "venue": tournament.venue,
            "games_count": fmt.games_count,
            "event_type": fmt.own_event_type,
            # how the games were played and scored: the instance shows the laptop's, not its defaults
            "scoring_system": fmt.scoring_system,
            "ruleset": fmt.ruleset,
            "ruleset_overrides": dict(fmt.ruleset_overrides),
            "start_times": [str(t) for t in tournament.start_times or []],
            "capacity": tournament.capacity,
        },
        "players": [{"key": p.pk, "name": p.display_name, "club": p.club.name if p.club else ""}
                    for p in players],
        "games": play["games"],
        "standings": play["standings"],
    }
    # the format chosen (preset, tie-break chain…) and the event's id in the national ranking
    content.update({key: play[key] for key in ("scoring", "ranking") if key in play})
    return content


def prepare(tournament: Tournament) -> dict[str, Any]:
    """The document to send. The sequence number grows when the content changed since the last
    publish attempt, and stays when it did not (a retry sends the very same document)."""
    if tournament.club_id is None:
        raise DomainError(_("Name the tournament's organising club before publishing it (the Publish page, or "
                            "the command's --club)."), field="club", rule="PUBLISH")
    content = content_of(tournament)
    digest = digest_of(content)
    with transaction.atomic():
        state, _created = PublishState.objects.select_for_update().get_or_create(tournament=tournament)
        if state.last_digest != digest:
            state.sequence += 1
            state.last_digest = digest
            state.save(update_fields=["sequence", "last_digest"])
    return {
        "format": FORMAT,
        "source_id": str(state.source_id),
        "slug": tournament.slug,
        "club": tournament.club.name if tournament.club else "",
        "sequence": state.sequence,
        "content": content,
    }


# --- receiving (instance side) ------------------------------------------------------------------

# Makes the received copy a real tournament here (registered by the scoring app at start-up):
# ``materialise(row, content, previous)`` inside the publish's transaction (``previous``: the
# content of the publish before, if any); ``edited(row)`` whether that tournament was changed here
# since the last publish.
_MATERIALISER: dict[str, Callable[..., Any]] = {}


def set_materialiser(materialise: Callable[..., Any],
                     edited: Callable[[PublishedTournament], bool]) -> None:
    _MATERIALISER.update(materialise=materialise, edited=edited)


def _edited_here(row: PublishedTournament) -> bool:
    """The payload (admin) or the tournament made of it was changed on this instance."""
    if row.digest != row.published_digest:
        return True
    return bool(row.tournament_id and "edited" in _MATERIALISER and _MATERIALISER["edited"](row))


def _materialise(row: PublishedTournament, content: dict[str, Any],
                 previous: dict[str, Any] | None = None) -> None:
    if "materialise" in _MATERIALISER:
        _MATERIALISER["materialise"](row, content, previous)


def validate(document: Any, slug: str) -> None:
    """HTTP 400 naming the first field that is not in the allow-list (``publishing/schema.py``), is
    of the wrong kind or out of its bounds, or names a player the payload does not carry."""
    if not isinstance(document, dict):
        raise schema.refused("body", _("The body must be a JSON object."))
    if document.get("format") != FORMAT:
        raise schema.refused("format", _("Expected format %(format)s.") % {"format": FORMAT})
    schema.DOCUMENT.check(document, "")
    if document["slug"] != slug:
        raise schema.refused("slug", _("The slug in the body differs from the one in the address."))
    schema.check_references(document["content"])


def _check_clubs(content: dict[str, Any]) -> None:
    """A player's club must be a club of this instance (the token's own always is): a publish
    never creates a club, which only the federation does (docs/clubs.md)."""
    if not any(str(p.get("club") or "").strip() for p in content["players"]):
        return
    known = {name.strip().casefold() for name in Club.objects.values_list("name", flat=True)}
    for i, p in enumerate(content["players"]):
        name = str(p.get("club") or "").strip()
        if name and name.casefold() not in known:
            raise schema.refused(f"content.players[{i}].club", _(
                "No club called %(club)s is on this instance: correct the player's club on the "
                "laptop (or leave it empty), or ask the federation to add the club.") % {"club": repr(name)})


def _check_slug_free(club: Any, slug: str, source_id: uuid.UUID) -> None:
    """Refuse a slug taken here by another event: one run on this instance itself, or another
    published copy (another club's: not allowed; this club's: a conflict)."""
    local = Tournament.objects.filter(slug=slug).exclude(published_copy__source_id=source_id).first()
    if local is not None:  # an event run on this instance itself (not this copy)
        if local.club_id != club.pk:
            raise PermissionDeniedError(_("This tournament belongs to another club."),
                                        field="slug", rule="PUBLISH-CLUB")
        raise ConflictError(_("A tournament with this slug is run on this instance itself."),
                            field="slug", rule="PUBLISH-CONFLICT")
    same_slug = PublishedTournament.objects.filter(slug=slug).exclude(source_id=source_id).first()
    if same_slug is not None:
        if same_slug.club_id != club.pk:
            raise PermissionDeniedError(_("This tournament belongs to another club."),
                                        field="slug", rule="PUBLISH-CLUB")
        raise ConflictError(_("Another published tournament already uses this slug."),
                            field="slug", rule="PUBLISH-CONFLICT")


def receive(token: ClubToken, slug: str, document: Any) -> tuple[str, PublishedTournament]:
    """Store (or update) the published copy; ``("created" | "updated" | "unchanged", row)``."""
    validate(document, slug)
    club = token.club
    if document["club"] != club.name:
        raise PermissionDeniedError(_("This token belongs to another club."), field="club",
                                    rule="PUBLISH-CLUB")
    _check_clubs(document["content"])
    source_id = uuid.UUID(document["source_id"])
    content = document["content"]
    digest = digest_of(content)
    with transaction.atomic():
        _check_slug_free(club, slug, source_id)
        row = PublishedTournament.objects.select_for_update().filter(source_id=source_id).first()
        now = timezone.now()
        if row is None:
            row = PublishedTournament(club=club, source_id=source_id, slug=slug,
                                      name=content["tournament"]["name"][:200], payload=content,
                                      sequence=document["sequence"], published_digest=digest,
                                      published_at=now)
            row.save()
            _materialise(row, content)
            return "created", row
        if row.club_id != club.pk:
            raise PermissionDeniedError(_("This tournament belongs to another club."),
                                        field="source_id", rule="PUBLISH-CLUB")
        if _edited_here(row):
            raise ConflictError(_("The copy here was edited since the last publish: publishing would "
                                  "overwrite that edit."), field="content", rule="PUBLISH-CONFLICT")
        if digest == row.published_digest and document["sequence"] >= row.sequence:
            if row.tournament_id is None:  # a copy received before copies became tournaments
                _materialise(row, content)
            return "unchanged", row  # a retry of what is already here
        if document["sequence"] <= row.sequence:
            raise ConflictError(_("This is an older version than the one already published "
                                  "(sequence %(sent)s, here %(here)s).")
                                % {"sent": document["sequence"], "here": row.sequence},
                                field="sequence", rule="PUBLISH-CONFLICT")
        previous = row.payload  # the laptop's player keys of the last publish (publishing/copies.py)
        row.slug = slug
        row.name = content["tournament"]["name"][:200]
        row.payload = content
        row.sequence = document["sequence"]
        row.published_digest = digest
        row.published_at = now
        row.save()
        _materialise(row, content, previous)
        return "updated", row


# --- sending (laptop side) ----------------------------------------------------------------------

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


class Refused(Exception):
    """The instance (or the address) refused the publish: one line saying why."""


def endpoint(base: str, slug: str) -> str:
    """The instance's publish address; plain http only to this machine (tests, a local proxy)."""
    import urllib.parse

    parts = urllib.parse.urlsplit(base.strip())
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise Refused(_("The instance's address must start with https://."))
    if parts.scheme == "http" and parts.hostname not in LOCAL_HOSTS:
        raise Refused(_("Refusing plain http: publish over https:// (http only to localhost)."))
    return base.strip().rstrip("/") + f"/api/publish/tournaments/{urllib.parse.quote(slug)}/"


def _send(url: str, token: str, body: bytes, timeout: float) -> tuple[int, dict[str, Any]]:
    import json
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, data=body, method="PUT", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json",
        "Accept": "application/json",
        # the instance's refusals come back in the language of whoever publishes
        "Accept-Language": translation.get_language() or "en"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (scheme checked)
            data = json.loads(response.read() or b"{}")
            return response.status, data if isinstance(data, dict) else {}
    except urllib.error.HTTPError as exc:
        try:
            data = json.loads(exc.read() or b"{}")
        except ValueError:
            data = {}
        return exc.code, data if isinstance(data, dict) else {}


def publish_to(tournament: Tournament, base: str, token: str, *, attempts: int = 6, backoff: float = 1.0,
               timeout: float = 60.0, on_retry: Any = None) -> dict[str, Any]:
    """Send ``tournament`` to the instance at ``base``. Network failures (no connection, timeout,
    HTTP 5xx or 429) are retried ``attempts`` times in all, the pause doubling from ``backoff``
    seconds; a refusal raises :class:`Refused` at once. Returns the instance's answer."""
    import time
    import urllib.error

    url = endpoint(base, tournament.slug)
    try:
        document = prepare(tournament)
    except DomainError as exc:
        raise Refused(f"{exc.message} [{exc.rule}]") from exc
    body = exact.dumps(document, ensure_ascii=False).encode("utf-8")
    attempts, pause = max(1, attempts), max(0.0, backoff)
    status, data = 0, {}
    for attempt in range(1, attempts + 1):
        try:
            status, data = _send(url, token, body, timeout)
        except (urllib.error.URLError, OSError) as exc:
            status, data = 0, {"detail": _("network: %(reason)s") % {"reason": getattr(exc, "reason", exc)}}
        if 200 <= status < 300:
            PublishState.objects.filter(tournament=tournament).update(
                last_published_at=timezone.now(), last_target=base.strip()[:300])
            return data
        if status and status < 500 and status != 429:
            named = [k for k in data if k not in ("rule", "detail")]
            field = " " + _("(field %(field)s)") % {"field": named[0]} if named else ""
            rule = f" [{data['rule']}]" if data.get("rule") else ""
            raise Refused(_("Refused, HTTP %(status)s: %(detail)s") % {
                "status": status, "detail": data.get("detail", "")} + field + rule)
        if attempt < attempts:
            if on_retry is not None:
                on_retry(attempt, attempts, data.get("detail") or status, pause)
            time.sleep(pause)
            pause *= 2
    raise Refused(_("Not published after %(n)s attempts: %(reason)s") % {
        "n": attempts, "reason": data.get("detail") or status})
