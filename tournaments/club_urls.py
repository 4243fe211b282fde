from django.urls import path

from . import club_views

app_name = "clubs"
urlpatterns = [
    path("", club_views.club_list, name="list"),
    path("new/", club_views.club_create, name="create"),
    path("<id:pk>/", club_views.club_detail, name="detail"),
    path("<id:pk>/admins/", club_views.club_admin_add, name="admin_add"),
    path("<id:pk>/admins/<id:role>/remove/", club_views.club_admin_remove, name="admin_remove"),
]
