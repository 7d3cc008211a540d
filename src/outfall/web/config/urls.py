"""URL map: each bounded context mounts its own urls."""

from django.conf import settings
from django.urls import include, path

urlpatterns = [
    path("", include("outfall.web.apps.core.urls")),
    path("permits/", include("outfall.web.apps.permits.urls")),
    path("deadlines/", include("outfall.web.apps.deadlines.urls")),
    path("api/", include("outfall.web.apps.api.urls")),
    path("dpw/", include("outfall.web.apps.enforcement.urls")),
    path("dpw/idde/", include("outfall.web.apps.idde.urls")),
    path("", include("outfall.web.apps.idde.urls_public")),
    path("dpw/assets/", include("outfall.web.apps.assets.urls")),
]

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
