from django.contrib import admin

from . import privacy
from .models import (
    AccessLink,
    AuditEntry,
    CheckIn,
    Club,
    ClubRole,
    DistinctPlayers,
    IdempotentWrite,
    Invitation,
    Player,
    Registration,
    Tournament,
    TournamentRole,
    Withdrawal,
)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "region"]
    search_fields = ["name", "city"]


@admin.register(ClubRole)
class ClubRoleAdmin(admin.ModelAdmin):
    """Club admins (the federation's pages and ``manage.py create_club`` do the same, audited)."""

    list_display = ["club", "user", "role", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["club__name", "user__username"]
    list_select_related = ["club", "user"]
    autocomplete_fields = ["user"]


@admin.register(DistinctPlayers)
class DistinctPlayersAdmin(admin.ModelAdmin):
    """Pairs decided to be two people (the near-duplicates page decides them, audited)."""

    list_display = ["first", "second", "decided_by", "decided_at"]
    list_select_related = ["first", "second", "decided_by"]
    raw_id_fields = ["first", "second"]
    readonly_fields = ["decided_by", "decided_at"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "nickname", "club"]
    list_filter = ["club"]
    search_fields = ["first_name", "last_name", "nickname", "normalised_name"]
    list_select_related = ["club"]
    actions = [privacy.admin_export, privacy.admin_erase]  # GDPR requests (tournaments/privacy.py)


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ["player"]


class RoleInline(admin.TabularInline):
    model = TournamentRole
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "date", "format", "status", "capacity"]
    list_filter = ["status", "format", "ruleset"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RoleInline, RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "status", "created_at"]
    list_filter = ["status", "tournament"]
    search_fields = ["player__last_name", "player__first_name"]
    raw_id_fields = ["player"]


@admin.register(CheckIn)
class CheckInAdmin(admin.ModelAdmin):
    list_display = ["registration", "game_number", "checked_in_at", "checked_in_by"]
    list_filter = ["game_number", "registration__tournament"]


@admin.register(Withdrawal)
class WithdrawalAdmin(admin.ModelAdmin):
    list_display = ["registration", "from_game", "withdrawn_at", "withdrawn_by", "reinstated_at"]
    list_filter = ["registration__tournament"]
    raw_id_fields = ["registration"]


@admin.register(TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "tournament", "role"]
    list_filter = ["role"]


@admin.register(AccessLink)
class AccessLinkAdmin(admin.ModelAdmin):
    list_display = ["tournament", "kind", "user", "player", "created_at", "revoked_at"]
    list_filter = ["kind"]
    readonly_fields = ["token", "last_used_at"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "actor_label", "action", "object_type", "object_id", "tournament"]
    list_filter = ["action"]
    search_fields = ["actor_label", "action", "object_type"]
    readonly_fields = [f.name for f in AuditEntry._meta.fields]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False  # the audit log is never edited


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Invitations are made and revoked from the tournament's pages; listed here read-only."""

    list_display = ["tournament", "role", "note", "created_at", "expires_at", "accepted_by",
                    "revoked_at"]
    list_filter = ["role"]
    list_select_related = ["tournament", "accepted_by"]
    readonly_fields = ["tournament", "role", "email", "note", "created_by", "created_at",
                       "expires_at", "accepted_at", "accepted_by", "revoked_at"]
    exclude = ["token"]

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(IdempotentWrite)
class IdempotentWriteAdmin(admin.ModelAdmin):
    """Writes done once under a client's idempotency key, with the answer a retry gets
    (tournaments/idempotency.py): to look at, never to edit (an edited answer would lie)."""

    list_display = ("owner", "key", "status", "created_at")
    search_fields = ("owner", "key")
    readonly_fields = [f.name for f in IdempotentWrite._meta.fields]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
