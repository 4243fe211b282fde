from django.contrib import admin

from tournaments.models import Season

from .models import SeasonFinals


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """A club's season; its pages (the club's page → Seasons) check and audit every change."""

    list_display = ("name", "club", "year", "rule", "best_n", "preset")
    list_filter = ("club", "year", "rule")
    list_select_related = ("club",)


@admin.register(SeasonFinals)
class SeasonFinalsAdmin(admin.ModelAdmin):
    """A season's final-phase option and the events it made; the season's pages check, draw and
    audit (change it there)."""

    list_display = ("season", "direct", "semifinal_places", "ripescati", "min_evenings", "consolation", "phase")
    list_select_related = ("season", "phase")
    readonly_fields = ("phase", "consolation_event")
