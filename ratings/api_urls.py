from django.urls import path

from . import api

urlpatterns = [
    path("ratings/", api.RatingsAPI.as_view(), name="api-ratings"),
]
