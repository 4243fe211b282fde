from django.urls import path

from . import views

app_name = "clubstats"

urlpatterns = [
    path("statistics/", views.home, name="home"),
    path("statistics/games.csv", views.games_csv, name="games_csv"),
    path("statistics/players/", views.players, name="players"),
    path("statistics/players.csv", views.players_csv, name="players_csv"),
    path("statistics/players/<id:pk>/", views.player, name="player"),
    path("statistics/clubs/<id:pk>/", views.club, name="club"),
    path("statistics/clubs/<id:pk>/statistics.csv", views.club_csv, name="club_csv"),
    path("statistics/clubs/<id:pk>/ranking/", views.ranking, name="ranking"),
    path("statistics/clubs/<id:pk>/ranking.csv", views.ranking_csv, name="ranking_csv"),
    path("statistics/clubs/<id:pk>/ranking/rule/", views.ranking_rule, name="ranking_rule"),
]
