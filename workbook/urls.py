from django.urls import path

from . import views

app_name = "workbook"
urlpatterns = [
    path("t/<slug:slug>/results/workbook/", views.workbook_page, name="export"),
    path("workbooks/import/", views.import_page, name="import"),
]
