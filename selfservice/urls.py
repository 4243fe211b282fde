from django.urls import path

from . import views

app_name = "selfservice"
urlpatterns = [
    path("t/<slug:slug>/me/checkin/", views.door, name="door"),
    path("t/<slug:slug>/me/checkin/go/", views.check_in, name="checkin"),
    path("t/<slug:slug>/me/skip/", views.skip, name="skip"),
    path("t/<slug:slug>/me/withdraw/", views.withdraw, name="withdraw"),
    path("t/<slug:slug>/games/<id:number>/tables/<id:table>/call/", views.call_referee, name="call"),
    path("t/<slug:slug>/referee-calls/", views.open_calls, name="calls"),
    path("t/<slug:slug>/referee-calls/<id:pk>/take/", views.take_call, name="take"),
    path("t/<slug:slug>/self-service/", views.settings_page, name="settings"),
    path("t/<slug:slug>/self-service/windows/<id:pk>/delete/", views.window_delete, name="window_delete"),
    path("t/<slug:slug>/self-service/standings/", views.standings_visibility, name="standings"),
    path("t/<slug:slug>/sanctions/", views.sanctions_page, name="sanctions"),
    path("t/<slug:slug>/sanctions/<id:pk>/delete/", views.sanction_delete, name="sanction_delete"),
]
