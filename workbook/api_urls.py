from django.urls import path, re_path

from . import views

urlpatterns = [
    path("scoring/tournaments/<slug:slug>/workbook/", views.WorkbookAPI.as_view(), name="api-workbook"),
    re_path(r"^scoring/tournaments/(?P<slug>[-a-zA-Z0-9_]+)/workbook/(?P<fmt>xlsx?)/$",
            views.WorkbookFileAPI.as_view(), name="api-workbook-file"),
    path("scoring/workbooks/import/", views.WorkbookImportAPI.as_view(), name="api-workbook-import"),
]
