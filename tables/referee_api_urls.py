"""Routes of the API of table clocks and the sdadata closure, under /api/ (see referee_api)."""

from django.urls import path

from . import referee_api

_T = "tournaments/<slug:slug>/games/<id:number>/tables/<id:table>/"

urlpatterns = [
    path(_T + "clock/", referee_api.ClockView.as_view(), name="api-table-clock"),
    path(_T + "clock/pause/", referee_api.PauseView.as_view(), name="api-table-clock-pause"),
    path(_T + "clock/resume/", referee_api.ResumeView.as_view(), name="api-table-clock-resume"),
    path(_T + "clock/extend/", referee_api.ExtendView.as_view(), name="api-table-clock-extend"),
    path(_T + "turns/", referee_api.TurnsView.as_view(), name="api-table-turns"),
    path(_T + "turns/eliminate/", referee_api.EliminateView.as_view(), name="api-table-eliminate"),
    path(_T + "turns/expiry-seat/", referee_api.ExpirySeatView.as_view(), name="api-table-expiry-seat"),
    path(_T + "turns/undo/", referee_api.UndoView.as_view(), name="api-table-undo"),
]
