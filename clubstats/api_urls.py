from django.urls import path

from . import api

urlpatterns = [
    path("statistics/games/", api.GamesStatisticsAPI.as_view(), name="api-statistics-games"),
    path("statistics/clubs/<id:pk>/", api.ClubStatisticsAPI.as_view(), name="api-statistics-club"),
    path("statistics/clubs/<id:pk>/ranking/", api.ClubRankingAPI.as_view(), name="api-statistics-club-ranking"),
    path("statistics/clubs/<id:pk>/ranking/rule/", api.ClubRankingRuleAPI.as_view(), name="api-statistics-club-ranking-rule"),
    path("statistics/players/<id:pk>/", api.PlayerStatisticsAPI.as_view(), name="api-statistics-player"),
]
