from django.urls import path

from . import api

urlpatterns = [
    path("clubs/<id:club>/seasons/", api.ClubSeasonsAPI.as_view(), name="api-club-seasons"),
    path("seasons/<id:pk>/", api.SeasonAPI.as_view(), name="api-season"),
    path("seasons/<id:pk>/standings/", api.SeasonStandingsAPI.as_view(), name="api-season-standings"),
    path("seasons/<id:pk>/evenings/", api.SeasonEveningsAPI.as_view(), name="api-season-evenings"),
    path("seasons/<id:pk>/evenings/attach/", api.SeasonEveningAttachAPI.as_view(),
         name="api-season-evenings-attach"),
    path("seasons/<id:pk>/evenings/detach/", api.SeasonEveningDetachAPI.as_view(),
         name="api-season-evenings-detach"),
]
