from django.urls import path

from . import views

app_name = "scoring"
urlpatterns = [
    path("t/<slug:slug>/standings/", views.standings_page, name="standings"),
    path("t/<slug:slug>/standings/print/", views.print_ranking, name="print"),
    path("t/<slug:slug>/standings/player/<id:pk>/", views.player_page, name="player"),
    path("t/<slug:slug>/results/", views.results_status, name="status"),
    path("t/<slug:slug>/results/game/<id:number>/finish/", views.finish_game, name="finish-game"),
    path("t/<slug:slug>/results/format/", views.format_page, name="format"),
    path("t/<slug:slug>/results/table/<id:pk>/", views.table_page, name="table"),
    path("t/<slug:slug>/results/table/<id:pk>/enter/", views.enter_result, name="enter"),
    path("t/<slug:slug>/results/<id:pk>/confirm/", views.confirm, name="confirm"),
    path("t/<slug:slug>/results/<id:pk>/withdraw/", views.withdraw_correction, name="withdraw"),
    path("t/<slug:slug>/export/<str:what>.<str:fmt>", views.export, name="export"),
]
