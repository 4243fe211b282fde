from django.urls import path

from . import api

urlpatterns = [
    path("scoring/tournaments/<slug:slug>/standings/", api.StandingsAPI.as_view(), name="api-standings"),
    path("scoring/tournaments/<slug:slug>/format/", api.FormatAPI.as_view(), name="api-format"),
    path("scoring/tournaments/<slug:slug>/games/<id:number>/finish/", api.FinishGameAPI.as_view(),
         name="api-game-finish"),
    path("scoring/tables/<id:pk>/results/", api.TableResultsAPI.as_view(), name="api-table-results"),
    path("scoring/results/<id:pk>/confirm/", api.ConfirmAPI.as_view(), name="api-result-confirm"),
    path("scoring/results/<id:pk>/withdraw/", api.WithdrawCorrectionAPI.as_view(), name="api-result-withdraw"),
]
