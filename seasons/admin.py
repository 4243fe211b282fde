from django.contrib import admin

from tournaments.models import Season


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """A club's season; its pages (the club's page → Seasons) check and audit every change."""

    list_display = ("name", "club", "year", "rule", "best_n", "preset")
    list_filter = ("club", "year", "rule")
    list_select_related = ("club",)
