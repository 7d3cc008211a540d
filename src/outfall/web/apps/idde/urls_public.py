"""Public Article I pages without login, mounted at the site root: the report form and status
pages under /report/ and the Open311 GeoReport v2 API under /open311/v2/.
"""

from outfall.web.apps.idde.views import open311, reports

app_name = "idde_public"

PUBLIC_VIEW_MODULES = (reports, open311)

urlpatterns = [p for module in PUBLIC_VIEW_MODULES for p in module.public_urlpatterns]
