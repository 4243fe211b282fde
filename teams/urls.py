from django.urls import path

from . import views

app_name = "teams"

urlpatterns = [
    path("t/<slug:slug>/teams/", views.teams_page, name="list"),
    path("t/<slug:slug>/teams/new/", views.team_create, name="create"),
    path("t/<slug:slug>/teams/standings/", views.standings_page, name="standings"),
    path("t/<slug:slug>/teams/<id:pk>/", views.team_page, name="team"),
    path("t/<slug:slug>/teams/<id:pk>/change/", views.team_change, name="change"),
    path("t/<slug:slug>/teams/<id:pk>/starters/", views.starters_by_organizer, name="starters"),
    path("t/<slug:slug>/teams/<id:pk>/captain/<str:token>/", views.captain_page, name="captain"),
]
