from django.urls import path

from . import api

urlpatterns = [
    path("scoring/tournaments/<slug:slug>/teams/standings/", api.TeamStandingsAPI.as_view(),
         name="api-team-standings"),
    path("tournaments/<slug:slug>/teams/", api.TeamsAPI.as_view(), name="api-teams"),
    path("tournaments/<slug:slug>/teams/<id:pk>/", api.TeamAPI.as_view(), name="api-team"),
    path("tournaments/<slug:slug>/teams/<id:pk>/members/", api.TeamMembersAPI.as_view(), name="api-team-members"),
    path("tournaments/<slug:slug>/teams/<id:pk>/members/<id:player>/", api.TeamMemberAPI.as_view(),
         name="api-team-member"),
    path("tournaments/<slug:slug>/teams/<id:pk>/starters/<id:number>/", api.TeamStartersAPI.as_view(),
         name="api-team-starters"),
]
