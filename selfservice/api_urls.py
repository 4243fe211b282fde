from django.urls import path

from . import api

_T = "tournaments/<slug:slug>/"

urlpatterns = [
    path(_T + "checkins/self/", api.SelfCheckInAPI.as_view(), name="api-checkin-self"),
    path(_T + "games/<id:number>/tables/<id:table>/referee-calls/", api.CallRefereeAPI.as_view(),
         name="api-table-referee-calls"),
    path(_T + "referee-calls/", api.RefereeCallList.as_view(), name="api-referee-calls"),
    path(_T + "referee-calls/<id:pk>/take/", api.TakeCallAPI.as_view(), name="api-referee-call-take"),
]
