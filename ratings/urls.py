from django.urls import path

from . import views

app_name = "ratings"

urlpatterns = [
    path("ratings/", views.ratings_page, name="list"),
]
