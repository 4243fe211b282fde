from django.urls import path, re_path

from . import api, national_api
from .workbook import views as workbook_views

urlpatterns = [
    path("scoring/tournaments/<slug:slug>/standings/", api.StandingsAPI.as_view(), name="scoring-api-standings"),
    path("scoring/tournaments/<slug:slug>/format/", api.FormatAPI.as_view(), name="scoring-api-format"),
    path("scoring/tournaments/<slug:slug>/ranking/", api.RankingAPI.as_view(), name="scoring-api-ranking"),
    path("scoring/tournaments/<slug:slug>/games/<id:number>/finish/", api.FinishGameAPI.as_view(),
         name="scoring-api-finish-game"),
    path("scoring/tournaments/<slug:slug>/workbook/", workbook_views.WorkbookAPI.as_view(),
         name="scoring-api-workbook"),
    re_path(r"^scoring/tournaments/(?P<slug>[-a-zA-Z0-9_]+)/workbook/(?P<fmt>xlsx?)/$",
            workbook_views.WorkbookFileAPI.as_view(), name="scoring-api-workbook-file"),
    path("scoring/workbooks/import/", workbook_views.WorkbookImportAPI.as_view(), name="scoring-api-workbook-import"),
    path("scoring/tables/<id:pk>/results/", api.TableResultsAPI.as_view(), name="scoring-api-table-results"),
    path("scoring/results/<id:pk>/confirm/", api.ConfirmAPI.as_view(), name="scoring-api-confirm"),
    path("scoring/results/<id:pk>/withdraw/", api.WithdrawCorrectionAPI.as_view(), name="scoring-api-withdraw"),
    path("ranking/", national_api.NationalRankingYearsAPI.as_view(), name="ranking-api-years"),
    path("ranking/<id:year>/", national_api.NationalRankingYearAPI.as_view(), name="ranking-api-year"),
]
