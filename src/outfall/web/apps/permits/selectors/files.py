"""Reads of a case's files (plans, O&M plans, abutters lists, signatures, site files,
inspection photos, as-builts): only for a case the reader may already see.

The caller has the application from `application_get(user, pk)` and has asked the policy for
`case.view`; these selectors never widen that: a file of another case is DoesNotExist.
"""

from __future__ import annotations

from django.db.models import QuerySet

from outfall.web.apps.permits.models import Application, Upload


def upload_list(application: Application) -> QuerySet[Upload]:
    """Every file of the case, newest first."""
    return application.uploads.order_by("-uploaded_at", "-pk")


def upload_get(application: Application, pk: int) -> Upload:
    """One file of this case, of any kind, else DoesNotExist."""
    return Upload.objects.get(application=application, pk=pk)
