from django.urls import path

from . import api, iscritti_api

urlpatterns = [
    path("clubs/", api.ClubList.as_view(), name="api-clubs"),
    path("players/", api.PlayerList.as_view(), name="api-players"),
    path("players/<int:pk>/", api.PlayerDetail.as_view(), name="api-player"),
    path("tournaments/", api.TournamentList.as_view(), name="api-tournaments"),
    path("tournaments/<slug:slug>/", api.TournamentDetail.as_view(), name="api-tournament"),
    path("tournaments/<slug:slug>/status/", api.TournamentStatus.as_view(),
         name="api-tournament-status"),
    path("tournaments/<slug:slug>/registrations/", api.RegistrationList.as_view(),
         name="api-registrations"),
    path("tournaments/<slug:slug>/registrations/import/", api.RegistrationImport.as_view(),
         name="api-registrations-import"),
    path("tournaments/<slug:slug>/registrations/export/", api.RegistrationExport.as_view(),
         name="api-registrations-export"),
    path("tournaments/<slug:slug>/registrations/iscritti/", iscritti_api.IscrittiImport.as_view(),
         name="api-registrations-iscritti"),
    path("tournaments/<slug:slug>/duplicates/", iscritti_api.Duplicates.as_view(), name="api-duplicates"),
    path("tournaments/<slug:slug>/players/merge/", iscritti_api.Merge.as_view(), name="api-players-merge"),
    path("tournaments/<slug:slug>/registrations/<int:pk>/national-id/",
         api.RegistrationNationalId.as_view(), name="api-registration-national-id"),
    path("tournaments/<slug:slug>/registrations/<int:pk>/withdraw/",
         api.RegistrationWithdraw.as_view(), name="api-registration-withdraw"),
    path("tournaments/<slug:slug>/checkins/", api.CheckInList.as_view(), name="api-checkins"),
    path("tournaments/<slug:slug>/roles/", api.RoleList.as_view(), name="api-roles"),
    path("tournaments/<slug:slug>/roles/<int:pk>/", api.RoleDetail.as_view(), name="api-role"),
    path("tournaments/<slug:slug>/links/", api.LinkList.as_view(), name="api-links"),
    path("tournaments/<slug:slug>/links/<int:pk>/revoke/", api.LinkRevoke.as_view(),
         name="api-link-revoke"),
]
