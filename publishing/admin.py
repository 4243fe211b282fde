from django.contrib import admin

from .models import ClubToken, PublishedTournament, PublishState


@admin.register(ClubToken)
class ClubTokenAdmin(admin.ModelAdmin):
    """Tokens are issued and revoked with ``manage.py club_token`` (the token is shown once)."""

    list_display = ("club", "prefix", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("club", "prefix", "token_hash", "created_at", "last_used_at")

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(PublishedTournament)
class PublishedTournamentAdmin(admin.ModelAdmin):
    """A copy published from a hall laptop. Editing it here makes the next publish refused
    (HTTP 409) until someone decides which version is right (docs/publishing.md)."""

    list_display = ("name", "slug", "club", "sequence", "published_at")
    readonly_fields = ("source_id", "sequence", "digest", "published_digest", "published_at")


@admin.register(PublishState)
class PublishStateAdmin(admin.ModelAdmin):
    """On a laptop: where each tournament was last published, under which stable id."""

    list_display = ("tournament", "sequence", "last_published_at", "last_target")
    readonly_fields = ("tournament", "source_id", "sequence", "last_digest", "last_published_at", "last_target")
