from django.urls import path

from tables import print_views, slip_views, views

app_name = "tables"
game = "t/<slug:slug>/games/<id:number>/"

urlpatterns = [
    path(game + "tables/", views.game_tables, name="game_tables"),
    path(game + "tables/<id:table>/", views.table_page, name="table"),
    path(game + "tables/<id:table>/sheet/", views.sheet, name="sheet"),
    path(game + "scoresheets/", print_views.scoresheets, name="scoresheets"),
    path(game + "where/", views.where, name="where"),
    path(game + "objective/", views.objective, name="objective"),
    path(game + "organize/", views.organize, name="organize"),
    path(game + "slips/", slip_views.game_slips, name="slips"),
    path(game + "clocks/", slip_views.game_clocks, name="game_clocks"),
    path("qr.svg", views.qr_image, name="qr"),
    path("t/<slug:slug>/me/", slip_views.player_home, name="player_home"),
    path("t/<slug:slug>/clock-settings/", slip_views.clock_settings, name="clock_settings"),
    path("t/<slug:slug>/knockout/", views.knockout_page, name="knockout"),
    path("t/<slug:slug>/knockout/phases/", views.phases_page, name="phases"),
    path("t/<slug:slug>/meetings/", print_views.meetings, name="meetings"),
]
