from outfall.web.apps.ms4.views import app_name, urlpatterns

__all__ = ["app_name", "urlpatterns"]
