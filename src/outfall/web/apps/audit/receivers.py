"""Audit rows for what no service of ours performs: a login, a logout, a refused login or a
lockout (Django's and django-axes' signals), a signed-in person's town switch (`core.signals`).
They are a person's own acts, in no town's record: each joins the installation-wide chain, the
town switch naming both towns. A row that cannot be written fails the request (fail closed).

Anonymous visitors' town switches change only their own session and are not recorded: there is
no one to name, and anyone could grow the record at will."""

from __future__ import annotations

from axes.signals import user_locked_out
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.db import transaction
from django.db.models.signals import post_migrate
from django.dispatch import receiver

from outfall.web.apps.audit.services import ACCOUNT_SECTION, audit_record
from outfall.web.apps.core.client_ip import client_ip
from outfall.web.apps.core.signals import town_switched

GUARD_MIGRATION = ("audit", "0004_append_only_guard")


def _address(request) -> str:
    return client_ip(request) if request is not None and hasattr(request, "META") else ""


def _account(username: str):
    if not username:
        return None
    model = get_user_model()
    return model._default_manager.filter(**{model.USERNAME_FIELD: username}).first()


def _record(*, actor, action: str, summary: str, obj, changes: dict, label: str | None = None):
    with transaction.atomic():
        audit_record(
            actor=actor,
            actor_label=label,
            town=None,
            action=action,
            section=ACCOUNT_SECTION,
            summary=summary,
            obj=obj,
            changes=changes,
        )


@receiver(user_logged_in, dispatch_uid="audit.login")
def login_recorded(sender, request, user, **kwargs):
    address = _address(request)
    _record(
        actor=user,
        action="account.login",
        summary=f"Logged in{f' from {address}' if address else ''}.",
        obj=user,
        changes={"address": address},
    )


@receiver(user_logged_out, dispatch_uid="audit.logout")
def logout_recorded(sender, request, user, **kwargs):
    if user is None:
        return
    _record(actor=user, action="account.logout", summary="Logged out.", obj=user, changes={})


@receiver(user_login_failed, dispatch_uid="audit.login_failed")
def login_failure_recorded(sender, credentials, request=None, **kwargs):
    if getattr(request, "axes_locked_out", False):
        return  # the lockout's own row says it (below)
    username = str(credentials.get("username", ""))[:150]
    address = _address(request)
    _record(
        actor=None,
        label="not logged in",
        action="account.login_refused",
        summary=f"A login as {username!r} was refused: wrong username or password"
        f"{f' (from {address})' if address else ''}.",
        obj=_account(username),
        changes={"username": username, "address": address},
    )


@receiver(user_locked_out, dispatch_uid="audit.lockout")
def lockout_recorded(sender, request, username, ip_address, **kwargs):
    username = str(username or "")[:150]
    _record(
        actor=None,
        label="not logged in",
        action="account.lockout",
        summary=f"A login as {username!r} from {ip_address} was refused: too many failed "
        "attempts, locked out for the cool-off period.",
        obj=_account(username),
        changes={"username": username, "address": ip_address},
    )


@receiver(town_switched, dispatch_uid="audit.town_switch")
def town_switch_recorded(sender, request, previous: str, town, **kwargs):
    user = getattr(request, "user", None)
    if not getattr(user, "is_authenticated", False):
        return
    _record(
        actor=user,
        action="account.town_switch",
        summary=f"Switched to work in {town.name}{f' (from {previous})' if previous else ''}.",
        obj=user,
        changes={"town": [previous, town.slug]},
    )


def guard_after_migrate(sender, using, **kwargs):
    """Put the database's append-only guard back after every migrate: SQLite drops a table's
    triggers when a migration rebuilds the table (`audit.append_only`)."""
    from django.db import connections
    from django.db.migrations.recorder import MigrationRecorder

    from outfall.web.apps.audit.append_only import guard_install

    connection = connections[using]
    if GUARD_MIGRATION in MigrationRecorder(connection).applied_migrations():
        guard_install(connection)


def connect_post_migrate(app_config) -> None:
    post_migrate.connect(guard_after_migrate, sender=app_config, dispatch_uid="audit.guard")
