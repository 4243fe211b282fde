"""Admin of ranking/: the national ranking's blacklist (K-RANKING), edited by staff only. Every
change is audited and queues the recomputation of the years it touches."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments import audit

from .models import RankingBlacklist


def _years(entry: RankingBlacklist) -> set[int]:
    from . import national

    first = entry.starts_on.year
    last = entry.ends_on.year if entry.ends_on else max([first, *national.years_with_events()])
    return set(range(first, last + 1))


def _snapshot(entry: RankingBlacklist) -> dict[str, Any]:
    return {"player": entry.player_id, "starts_on": str(entry.starts_on),
            "ends_on": str(entry.ends_on) if entry.ends_on else None, "reason": entry.reason}


@admin.register(RankingBlacklist)
class RankingBlacklistAdmin(admin.ModelAdmin):
    list_display = ["player", "starts_on", "ends_on", "reason"]
    search_fields = ["player__first_name", "player__last_name", "player__nickname", "reason"]
    autocomplete_fields = ["player"]
    date_hierarchy = "starts_on"

    # Staff (and only staff) manage the blacklist, whatever model permissions they were given.
    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    has_add_permission = has_module_permission  # type: ignore[assignment]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def save_model(self, request: HttpRequest, obj: RankingBlacklist, form: Any, change: bool) -> None:
        from . import national

        before = None
        years = _years(obj)
        if change:
            old = RankingBlacklist.objects.get(pk=obj.pk)
            before = _snapshot(old)
            years |= _years(old)
        else:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
        audit.record(actor=request.user, action="ranking.blacklist", obj=obj, tournament=None,
                     before=before, after=_snapshot(obj))
        for year in sorted(years):
            national.request_update(year)

    def delete_model(self, request: HttpRequest, obj: RankingBlacklist) -> None:
        from . import national

        years, before = _years(obj), _snapshot(obj)
        audit.record(actor=request.user, action="ranking.blacklist.delete", obj=obj, tournament=None,
                     before=before, after=None)
        super().delete_model(request, obj)
        for year in sorted(years):
            national.request_update(year)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for obj in list(queryset):
            self.delete_model(request, obj)
