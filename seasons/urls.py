from django.urls import path

from . import views
from .finals import views as finals

app_name = "seasons"
urlpatterns = [
    # a club's seasons (Campionato periodico)
    path("clubs/<id:club>/seasons/new/", views.season_create, name="create"),
    path("clubs/<id:club>/seasons/<id:pk>/", views.season_page, name="season"),
    path("clubs/<id:club>/seasons/<id:pk>/standings/", views.season_standings, name="standings"),
    path("clubs/<id:club>/seasons/<id:pk>/edit/", views.season_edit, name="edit"),
    path("clubs/<id:club>/seasons/<id:pk>/evenings/new/", views.evening_new, name="evening"),
    path("clubs/<id:club>/seasons/<id:pk>/evenings/attach/", views.evening_attach, name="attach"),
    path("clubs/<id:club>/seasons/<id:pk>/evenings/detach/", views.evening_detach, name="detach"),
    # its final phase
    path("clubs/<id:club>/seasons/<id:pk>/finals/", finals.finals_page, name="finals"),
    path("clubs/<id:club>/seasons/<id:pk>/finals/create/", finals.phase_create, name="finals-create"),
    path("clubs/<id:club>/seasons/<id:pk>/finals/withdraw/", finals.absent, name="finals-absent"),
    path("clubs/<id:club>/seasons/<id:pk>/finals/draw/<str:phase>/", finals.draw, name="finals-draw"),
]
