from outfall.web.apps.home.views import app_name, urlpatterns

__all__ = ["app_name", "urlpatterns"]
