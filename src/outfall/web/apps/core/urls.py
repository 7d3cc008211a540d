from django.contrib.auth import views as auth_views
from django.urls import path

from outfall.web.apps.core import views

app_name = "core"

urlpatterns = [
    path("town/", views.switch_town, name="switch_town"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="core/login.html"),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("healthz", views.healthz, name="healthz"),
]
