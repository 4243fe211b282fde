from django.urls import path

from . import api
from .finals import api as finals_api

urlpatterns = [
    path("clubs/<id:club>/seasons/", api.ClubSeasonsAPI.as_view(), name="api-club-seasons"),
    path("seasons/<id:pk>/", api.SeasonAPI.as_view(), name="api-season"),
    path("seasons/<id:pk>/standings/", api.SeasonStandingsAPI.as_view(), name="api-season-standings"),
    path("seasons/<id:pk>/evenings/", api.SeasonEveningsAPI.as_view(), name="api-season-evenings"),
    path("seasons/<id:pk>/evenings/attach/", api.SeasonEveningAttachAPI.as_view(),
         name="api-season-evenings-attach"),
    path("seasons/<id:pk>/evenings/detach/", api.SeasonEveningDetachAPI.as_view(),
         name="api-season-evenings-detach"),
    path("seasons/<id:pk>/finals/", finals_api.SeasonFinalsAPI.as_view(), name="api-season-finals"),
    path("seasons/<id:pk>/finals/withdraw/", finals_api.SeasonFinalsWithdrawAPI.as_view(),
         name="api-season-finals-withdraw"),
    path("seasons/<id:pk>/finals/draw/", finals_api.SeasonFinalsDrawAPI.as_view(), name="api-season-finals-draw"),
]
