"""URL map: each bounded context mounts its own urls.

Stored files (uploads, generated documents, photos) have no URL of their own, in development
as in production: there is no /media/ route. Each is read through its record's view, which
checks the reader's permission first (outfall.web.apps.core.files).
"""

from django.urls import include, path

urlpatterns = [
    path("", include("outfall.web.apps.home.urls")),
    path("", include("outfall.web.apps.core.urls")),
    path("permits/", include("outfall.web.apps.permits.urls")),
    path("regulations/", include("outfall.web.apps.regulations.urls")),
    path("deadlines/", include("outfall.web.apps.deadlines.urls")),
    path("api/", include("outfall.web.apps.api.urls")),
    path("account/tokens/", include("outfall.web.apps.api.pages")),
    path("dpw/", include("outfall.web.apps.enforcement.urls")),
    path("dpw/idde/", include("outfall.web.apps.idde.urls")),
    path("dpw/ms4/", include("outfall.web.apps.ms4.urls")),
    path("", include("outfall.web.apps.idde.urls_public")),
    path("dpw/assets/", include("outfall.web.apps.assets.urls")),
    path("jobs/", include("outfall.web.apps.jobs.urls")),
]
