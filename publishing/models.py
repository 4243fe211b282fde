"""What publishing keeps: a club's publishing tokens, the copies received from hall laptops, and
a laptop's publishing state per tournament (docs/publishing.md).

The models stay registered under the ``tournaments`` app label, so their tables, migrations and
admin addresses are the ones they always had; the code that uses them lives here.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from common.jsonexact import ExactJSONDecoder, ExactModelJSONEncoder
from engine import exact
from tournaments.models import Club, Tournament


def digest_of(content: Any) -> str:
    return hashlib.sha256(exact.dumps(content, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class ClubToken(models.Model):
    """A club's key for publishing its tournaments to this instance (``manage.py club_token``).

    Only a SHA-256 hash of the token is stored; ``prefix`` (the first characters, shown in
    listings) finds the row, and the hash is compared in constant time. A token reaches only the
    tournaments of its own club; revoking it refuses every later publish made with it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="publish_tokens",
                             verbose_name=_("club"))
    prefix = models.CharField(max_length=12, unique=True)
    token_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "tournaments"  # its table and migrations stay the tournaments app's
        ordering = ["club", "created_at"]
        verbose_name = _("club publishing token")
        verbose_name_plural = _("club publishing tokens")

    def __str__(self) -> str:
        return f"{self.club} {self.prefix}…"


class PublishedTournament(models.Model):
    """A tournament run elsewhere (a hall laptop) and published here: the copy as received, and
    the real tournament made of it (``tournament``; see ``publishing.copies``).

    ``source_id`` is the laptop tournament's stable id, so publishing again updates this row.
    ``sequence`` only grows (an older payload replayed later is refused); ``published_digest`` is
    the digest of the content as last published and ``digest`` that of the content now, so an edit
    made here since the last publish is noticed (the next publish is refused, HTTP 409)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="published_tournaments",
                             verbose_name=_("club"))
    source_id = models.UUIDField(unique=True)
    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=200)
    payload = models.JSONField(default=dict, encoder=ExactModelJSONEncoder, decoder=ExactJSONDecoder)
    sequence = models.PositiveIntegerField(default=0)
    digest = models.CharField(max_length=64)
    published_digest = models.CharField(max_length=64)
    published_at = models.DateTimeField()
    # The real tournament the copy is on this instance (its pages, standings and the national
    # ranking show it), and the digest of its content as the last publish left it: a different
    # digest now means someone edited it here.
    tournament = models.OneToOneField(Tournament, null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="published_copy", verbose_name=_("tournament"))
    tournament_digest = models.CharField(max_length=64, blank=True)

    class Meta:
        app_label = "tournaments"  # its table and migrations stay the tournaments app's
        ordering = ["-published_at"]
        verbose_name = _("published tournament")
        verbose_name_plural = _("published tournaments")

    def __str__(self) -> str:
        return self.name

    def save(self, *args: object, **kwargs: object) -> None:
        self.digest = digest_of(self.payload)  # an edit made here changes it
        super().save(*args, **kwargs)  # type: ignore[arg-type]


class PublishState(models.Model):
    """The laptop's side of publishing one tournament: its stable id on every instance it is
    published to, and the sequence number of its content (grows when the content changes)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="publish_state")
    source_id = models.UUIDField(default=uuid.uuid4, unique=True)
    sequence = models.PositiveIntegerField(default=0)
    last_digest = models.CharField(max_length=64, blank=True)
    last_published_at = models.DateTimeField(null=True, blank=True)
    last_target = models.CharField(max_length=300, blank=True)

    class Meta:
        app_label = "tournaments"  # its table and migrations stay the tournaments app's
        verbose_name = _("publishing state")
        verbose_name_plural = _("publishing states")

    def __str__(self) -> str:
        return f"{self.tournament} #{self.sequence}"
