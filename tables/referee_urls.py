"""Routes of the referee's table page and the hall projector page (see referee_views)."""

from django.urls import path

from . import referee_views

app_name = "tables_referee"
urlpatterns = [
    path("t/<slug:slug>/games/<id:number>/projector/", referee_views.projector, name="projector"),
    path("t/<slug:slug>/games/<id:number>/tables/<id:table>/referee/", referee_views.referee_table,
         name="referee_table"),
    path("t/<slug:slug>/games/<id:number>/tables/<id:table>/referee/status/",
         referee_views.referee_status, name="referee_status"),
]
