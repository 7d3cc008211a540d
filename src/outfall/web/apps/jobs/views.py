"""A job's progress as a small fragment the page polls (htmx), the town administrators' list of
failed and recent jobs with a Retry button, and their check of the town's audit record on
demand, queued as a job."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from outfall.web.apps.core.models import Town
from outfall.web.apps.core.pages import page_of
from outfall.web.apps.jobs import selectors as sel
from outfall.web.apps.jobs import services as svc
from outfall.web.apps.jobs.policy import may_manage_jobs
from outfall.web.apps.jobs.record_check import audit_verification_request


@login_required
def job_status(request, pk: int):
    """The job's state: the fragment alone to htmx, else a page around it."""
    job = sel.job_get_visible(request.user, pk)
    if job is None:
        raise Http404("No such job")
    if request.htmx:
        return render(request, "jobs/_status.html", {"job": job})
    return render(request, "jobs/status.html", {"job": job})


@login_required
def job_list(request):
    town = request.town
    if not may_manage_jobs(request.user, town):
        raise PermissionDenied("only the town's administrators see its background jobs")
    return render(
        request,
        "jobs/list.html",
        {
            "town": town,
            "failed": page_of(request, sel.job_list_failed(town)),
            "recent": sel.job_list_recent(town),
        },
    )


@login_required
@require_POST
def job_retry_view(request, pk: int):
    job = sel.job_get_visible(request.user, pk)
    if job is None:
        raise Http404("No such job")
    try:
        svc.job_retry(job, actor=request.user)
    except svc.JobRefused as exc:
        messages.error(request, f"Not retried: {exc}.")
    else:
        messages.success(request, f"Queued again: {job.label}.")
    return redirect("jobs:list")


@login_required
@require_POST
def verify_audit(request):
    """Queue the check of the town's audit record (its administrators) and follow it on the
    job's page, whose result links back to the page the check was asked from."""
    town = get_object_or_404(Town, slug=request.POST.get("town", ""))
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("home:home")
    job = audit_verification_request(town, actor=request.user, back=back)
    messages.success(request, f"The check of {town.name}'s record is queued; it shows below.")
    return redirect("jobs:status", job.pk)
