from django.contrib import admin

from tables.models import ClockEvent, Game, Seat, Table, TurnEvent


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "player", "colour", "objective"]
    raw_id_fields = ["player"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "seed", "started_at"]
    list_filter = ["status"]
    search_fields = ["tournament__name", "tournament__slug"]
    readonly_fields = ["composition_report"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "status", "deal_seed", "deadline"]
    list_filter = ["status"]
    search_fields = ["game__tournament__slug"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["table", "number", "player", "colour"]
    search_fields = ["player__last_name", "player__first_name", "player__nickname"]
    raw_id_fields = ["player", "table", "game"]


admin.site.register(ClockEvent)
admin.site.register(TurnEvent)
