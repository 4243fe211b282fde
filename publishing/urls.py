from django.urls import path

from . import views

app_name = "publishing"
urlpatterns = [
    path("t/<slug:slug>/publish/", views.publish, name="publish"),
]
