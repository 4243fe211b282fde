from django.urls import path

from . import api

urlpatterns = [
    path("players/<id:pk>/history/", api.PlayerHistoryAPI.as_view(), name="api-player-history"),
    path("players/<id:pk>/versus/<id:other>/", api.HeadToHeadAPI.as_view(), name="api-head-to-head"),
]
