"""A case's files, read by whoever may open the case page (§ 267-17A): the applicant of their
own case, the town's permit staff of a submitted one. Anonymous users are sent to log in; a
case or file the reader may not see is a 404 (its existence is not revealed).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.urls import path
from django.views.decorators.http import require_GET

from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.permits.models import Upload
from outfall.web.apps.permits.selectors import files as sel
from outfall.web.apps.permits.views.cases import case_for


@login_required
@require_GET
def upload_download(request, pk: int, upload_pk: int):
    application = case_for(request, pk)
    try:
        upload = sel.upload_get(application, upload_pk)
    except Upload.DoesNotExist:
        raise Http404("No such file") from None
    return stored_file_response(
        upload.file,
        filename=upload.original_name or f"{application.number}-{upload.kind}",
        content_type=upload.content_type,
    )


urlpatterns = [
    path("<int:pk>/files/<int:upload_pk>/", upload_download, name="upload"),
]
