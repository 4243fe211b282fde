from django.urls import path

from . import federation_views, near_duplicate_views
from . import views as club_views

app_name = "clubs"
urlpatterns = [
    path("", club_views.club_list, name="list"),
    path("new/", club_views.club_create, name="create"),
    path("federation/", federation_views.federation, name="federation"),
    path("federation/<id:user>/revoke/", federation_views.federation_revoke, name="federation_revoke"),
    path("duplicates/", near_duplicate_views.duplicate_list, name="duplicates"),
    path("duplicates/decide/", near_duplicate_views.decide, name="duplicates_decide"),
    path("<id:pk>/", club_views.club_detail, name="detail"),
    path("<id:pk>/admins/", club_views.club_admin_add, name="admin_add"),
    path("<id:pk>/admins/<id:role>/remove/", club_views.club_admin_remove, name="admin_remove"),
]
