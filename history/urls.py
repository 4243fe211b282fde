from django.urls import path

from . import views

app_name = "history"
urlpatterns = [
    # one history per player, every event on this instance
    path("players/<id:pk>/", views.player_history, name="player"),
    path("players/<id:pk>/opponents/", views.opponents, name="opponents"),
    path("players/<id:pk>/versus/<id:other>/", views.head_to_head, name="head-to-head"),
]
