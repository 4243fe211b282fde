from django.contrib import admin
from django.urls import include, path, register_converter
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from common.live import server_time, set_language
from config.converters import IdConverter
from config.favicon import favicon
from config.health import healthz

# Before the apps' URLconfs are included: they route ids as <id:...> (never the unbounded <int:>).
register_converter(IdConverter, "id")

api_patterns = [
    path("", include("publishing.api_urls")),
    path("", include("tournaments.api_urls")),
    path("", include("clubs.api_urls")),
    path("", include("tables.api_urls")),
    path("", include("tables.referee_api_urls")),
    path("", include("workbook.api_urls")),
    path("", include("history.api_urls")),
    path("", include("seasons.api_urls")),
    path("", include("ranking.api_urls")),
    path("", include("scoring.api_urls")),
    path("", include("ratings.api_urls")),
    path("", include("teams.api_urls")),
    path("", include("selfservice.api_urls")),
    path("", include("fees.api_urls")),
    path("", include("clubstats.api_urls")),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("language/", set_language, name="language"),
    path("time", server_time, name="server-time"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # the documentation pages: every asset from this server, no inline script (templates/api/)
    path("api/docs/", SpectacularSwaggerSplitView.as_view(
        url_name="api-schema", template_name="api/swagger_ui.html"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(
        url_name="api-schema", template_name="api/redoc.html"), name="api-redoc"),
    path("api/", include(api_patterns)),
    path("", include("tables.referee_urls")),
    path("", include("tables.urls")),
    path("", include("workbook.urls")),
    path("", include("history.urls")),
    path("", include("seasons.urls")),
    path("", include("ranking.urls")),
    path("", include("scoring.urls")),
    path("", include("ratings.urls")),
    path("", include("teams.urls")),
    path("", include("selfservice.urls")),
    path("", include("fees.urls")),
    path("", include("clubstats.urls")),
    path("clubs/", include("clubs.urls")),
    path("", include("publishing.urls")),
    path("", include("tournaments.urls")),
]

handler400 = "common.api.bad_request"  # JSON under /api/
handler404 = "common.api.not_found"  # JSON under /api/
