from django.urls import path

from . import api

urlpatterns = [
    path("publish/tournaments/<slug:slug>/", api.PublishTournament.as_view(), name="api-publish"),
]
