from django.urls import path

from . import iscritti_views, privacy_views, views

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path("l/<str:token>/", views.open_link, name="link"),
    path("t/<slug:slug>/", views.tournament_detail, name="detail"),
    path("t/<slug:slug>/register/", views.register, name="register"),
    path("t/<slug:slug>/manage/", views.manage, name="manage"),
    path("t/<slug:slug>/edit/", views.tournament_edit, name="edit"),
    path("t/<slug:slug>/status/", views.tournament_status, name="status"),
    path("t/<slug:slug>/registrations/", views.registrations, name="registrations"),
    path("t/<slug:slug>/registrations/<id:pk>/withdraw/", views.registration_withdraw,
         name="withdraw"),
    path("t/<slug:slug>/registrations/<id:pk>/promote/", views.registration_promote,
         name="promote"),
    path("t/<slug:slug>/registrations/<id:pk>/national-id/", views.registration_national_id,
         name="national_id"),
    path("t/<slug:slug>/registrations/import/", views.registrations_import, name="import"),
    path("t/<slug:slug>/registrations/export.csv", views.registrations_export, name="export"),
    path("t/<slug:slug>/registrations/iscritti/", iscritti_views.iscritti_import, name="iscritti"),
    path("t/<slug:slug>/players/duplicates/", iscritti_views.duplicates, name="duplicates"),
    path("t/<slug:slug>/players/<id:pk>/merge/", iscritti_views.merge_player, name="merge"),
    path("t/<slug:slug>/players/<id:pk>/data/", privacy_views.player_data, name="player_data"),
    path("t/<slug:slug>/checkin/<id:game>/", views.checkin, name="checkin"),
    path("t/<slug:slug>/checkin/<id:game>/count/", views.checkin_count, name="checkin_count"),
    path("t/<slug:slug>/checkin/<id:game>/<id:pk>/", views.checkin_toggle,
         name="checkin_toggle"),
    path("t/<slug:slug>/staff/", views.staff, name="staff"),
    path("t/<slug:slug>/staff/roles/<id:pk>/remove/", views.role_remove, name="role_remove"),
    path("t/<slug:slug>/staff/links/", views.link_create, name="link_create"),
    path("t/<slug:slug>/staff/links/<id:pk>/revoke/", views.link_revoke, name="link_revoke"),
    path("t/<slug:slug>/audit/", views.audit_log, name="audit"),
]
