from django.urls import path

from outfall.web.apps.permits import views

app_name = "permits"

urlpatterns = [
    path("", views.application_list, name="list"),
    path("<int:pk>/", views.application_detail, name="detail"),
]
