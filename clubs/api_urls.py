from django.urls import path

from . import api

urlpatterns = [
    path("clubs/", api.ClubList.as_view(), name="api-clubs"),
]
