"""Public Article I pages without login, mounted at the site root: the report form and status
pages under /report/ and the Open311 GeoReport v2 API under /open311/v2/.
"""

from outfall.web.apps.idde.urls import optional_view_module

app_name = "idde_public"

PUBLIC_VIEW_MODULES = ("reports", "open311")

urlpatterns = []
for _name in PUBLIC_VIEW_MODULES:
    _module = optional_view_module(_name)
    if _module is not None:
        urlpatterns += getattr(_module, "public_urlpatterns", [])
