from django.urls import path

from . import views

app_name = "fees"
urlpatterns = [
    path("t/<slug:slug>/fee/", views.fee_settings, name="settings"),
    path("t/<slug:slug>/fee/<id:pk>/", views.mark, name="mark"),
    path("t/<slug:slug>/cash/", views.cash, name="cash"),
    path("t/<slug:slug>/cash/csv/", views.cash_csv, name="cash_csv"),
    path("clubs/<id:pk>/members/", views.members, name="members"),
    path("clubs/<id:pk>/members/<id:member>/", views.member_change, name="member_change"),
    path("clubs/<id:pk>/members/<id:member>/remove/", views.member_remove, name="member_remove"),
]
