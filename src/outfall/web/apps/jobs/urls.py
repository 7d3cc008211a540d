from django.urls import path

from outfall.web.apps.jobs import views

app_name = "jobs"

urlpatterns = [
    path("", views.job_list, name="list"),
    path("<int:pk>/status/", views.job_status, name="status"),
    path("<int:pk>/retry/", views.job_retry_view, name="retry"),
    path("verify-audit/", views.verify_audit, name="verify_audit"),
]
