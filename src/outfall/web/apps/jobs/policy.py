"""Who sees a job and who manages a town's jobs."""

from __future__ import annotations

from outfall.web.apps.core.permissions import has_role, roles_in
from outfall.web.apps.core.roles import Role


def may_manage_jobs(user, town) -> bool:
    """The town's administrators (and the installation's superusers) see its jobs and retry them."""
    if getattr(user, "is_superuser", False) and getattr(user, "is_active", False):
        return True
    return town is not None and has_role(user, town, Role.ADMIN)


def may_see_job(user, job) -> bool:
    """The person who asked for the job, and the staff of its town, follow its progress."""
    if not getattr(user, "is_authenticated", False):
        return False
    if job.requested_by_id == user.pk or may_manage_jobs(user, job.town):
        return True
    return job.town is not None and bool(roles_in(user, job.town))
