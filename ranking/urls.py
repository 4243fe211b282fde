from django.urls import path

from . import views

app_name = "ranking"
urlpatterns = [
    # one event's contribution (K-RANKING), on the tournament's standings path
    path("t/<slug:slug>/standings/ranking/", views.event_page, name="event"),
    # the national ranking, every event on this instance
    path("ranking/", views.years_page, name="national"),
    path("ranking/<id:year>/", views.year_page, name="national-year"),
    path("ranking/<id:year>/player/<id:pk>/", views.player_page, name="national-player"),
    path("ranking/<id:year>/export.<str:fmt>", views.export, name="national-export"),
]
