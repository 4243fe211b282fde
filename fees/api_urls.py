from django.urls import path

from . import api

urlpatterns = [
    path("tournaments/<slug:slug>/fee/", api.FeeAPI.as_view(), name="api-fee"),
    path("tournaments/<slug:slug>/payments/", api.PaymentList.as_view(), name="api-payments"),
    path("tournaments/<slug:slug>/registrations/<id:pk>/payment/", api.PaymentAPI.as_view(),
         name="api-registration-payment"),
    path("tournaments/<slug:slug>/cash/", api.CashAPI.as_view(), name="api-cash"),
    path("clubs/<id:club>/members/", api.MemberList.as_view(), name="api-club-members"),
    path("clubs/<id:club>/members/<id:pk>/", api.MemberAPI.as_view(), name="api-club-member"),
]
