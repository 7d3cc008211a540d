from django.urls import path

from outfall.web.apps.audit import views

app_name = "audit"

urlpatterns = [path("audit/verify/", views.verify_on_demand, name="verify")]
