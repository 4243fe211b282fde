from django.urls import path

from . import api

urlpatterns = [
    path("scoring/tournaments/<slug:slug>/ranking/", api.RankingAPI.as_view(), name="api-event-ranking"),
    path("ranking/", api.NationalRankingYearsAPI.as_view(), name="api-national-ranking"),
    path("ranking/<id:year>/", api.NationalRankingYearAPI.as_view(), name="api-national-ranking-year"),
]
