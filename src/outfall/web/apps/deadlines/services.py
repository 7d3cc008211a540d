"""Writes of the deadlines app: the personal calendar address and the daily reminder run."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string

from outfall.web.apps.core.models import CalendarToken, Membership
from outfall.web.apps.core.roles import PERMIT_STAFF
from outfall.web.apps.deadlines.models import ReminderSent
from outfall.web.apps.deadlines.selectors import (
    CLOCK_SOURCES,
    ClockState,
    approval_risks_with_problems,
    clock_list_visible_to,
    open_cases_visible_to,
)
from outfall.web.apps.kit.credentials import credential_audit
from outfall.web.apps.kit.mail import mail_on_commit
from outfall.web.apps.ms4 import clocks as ms4_clocks
from outfall.web.apps.permits import clocks as permit_clocks
from outfall.web.apps.permits.clocks import NO_CLOCKS
from outfall.web.apps.permits.models import Application

REMIND_STATES = (ClockState.WARNING, ClockState.OVERDUE)


def calendar_token_rotate(user, *, actor, town=None) -> CalendarToken:
    """Give `user` a new secret calendar address; the old one stops working at once."""
    with transaction.atomic():
        token, created = CalendarToken.objects.update_or_create(
            user=user, defaults={"token": secrets.token_urlsafe(32)}
        )
        credential_audit(
            token,
            actor=actor,
            town=town,
            action="calendar_token.rotate",
            summary="New private calendar address issued; any earlier one revoked",
            changes={"created": created},
        )
    return token


@dataclass
class ReminderRun:
    """What one run of the daily reminders did."""

    day: dt.date
    sent: dict[str, int] = field(default_factory=dict)
    already_sent: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.day.isoformat()}: {len(self.sent)} reminder(s) sent, "
            f"{len(self.already_sent)} already sent today (the worker delivers them)"
        )


# The MS4 program's deadlines lie years apart and stand on the DPW's worklist and dashboard; a
# daily e-mail about one overdue since the permit's first year would teach people to ignore the
# reminders, so they are not mailed.
NOT_REMINDED = frozenset({ms4_clocks.SOURCE})
OTHER_REMINDED = tuple(
    s.SOURCE for s in CLOCK_SOURCES if s.SOURCE not in NOT_REMINDED | {permit_clocks.SOURCE}
)


def _reminder_towns() -> dict[int, set[int]]:
    """user id -> the towns where the user is permit staff and wants reminders."""
    out: dict[int, set[int]] = {}
    rows = Membership.objects.filter(
        receives_reminders=True, role__in=[str(r) for r in PERMIT_STAFF], user__is_active=True
    ).values_list("user_id", "town_id")
    for user_id, town_id in rows:
        out.setdefault(user_id, set()).add(town_id)
    return out


def _any_reminder_towns() -> dict[int, set[int]]:
    """user id -> the towns where the user holds any role and wants reminders (other sources)."""
    out: dict[int, set[int]] = {}
    rows = Membership.objects.filter(receives_reminders=True, user__is_active=True).values_list(
        "user_id", "town_id"
    )
    for user_id, town_id in rows:
        out.setdefault(user_id, set()).add(town_id)
    return out


def _applicants_with_open_cases() -> set[int]:
    return set(
        Application.objects.exclude(state__in=NO_CLOCKS)
        .filter(applicant__is_active=True)
        .values_list("applicant_id", flat=True)
    )


def deadline_reminders_send(*, today: dt.date) -> ReminderRun:
    """E-mail each person the clocks of theirs in warning or overdue on `today`.

    Staff who receive reminders get their towns' cases, applicants their own; the clocks of the
    other sources (enforcement, investigations, assets) go to whoever may see them in a town
    where they receive reminders. Each e-mail is recorded as sent in the same transaction that
    puts it in the outbox (`kit.mail`): the worker sends it, trying again while the mail server
    fails, and a second run on the same day finds the record and queues nothing.
    """
    run = ReminderRun(day=today)
    staff_towns = _reminder_towns()
    any_towns = _any_reminder_towns()
    wanted = set(staff_towns) | _applicants_with_open_cases() | set(any_towns)
    users = get_user_model().objects.filter(pk__in=wanted).exclude(email="").order_by("pk")
    done = set(ReminderSent.objects.filter(sent_on=today).values_list("user_id", flat=True))
    for user in users:
        if user.pk in done:
            run.already_sent.append(user.get_username())
            continue
        towns = staff_towns.get(user.pk, set())
        cases = open_cases_visible_to(user).filter(Q(applicant=user) | Q(town_id__in=towns))
        clocks = clock_list_visible_to(user, today=today, states=REMIND_STATES, applications=cases)
        if user.pk in any_towns:
            clocks += clock_list_visible_to(
                user,
                today=today,
                states=REMIND_STATES,
                town_ids=any_towns[user.pk],
                sources=OTHER_REMINDED,
            )
            clocks.sort(key=lambda c: (c.due, c.case_number, c.key))
        problems = approval_risks_with_problems(user, today=today, town_ids=towns)
        if not clocks and not problems:
            continue
        if _send_reminder(user, today, clocks, problems):
            run.sent[user.get_username()] = len(clocks)
        else:
            run.already_sent.append(user.get_username())
    return run


def _send_reminder(user, today: dt.date, clocks, problems) -> bool:
    context = {
        "user": user,
        "today": today,
        "clocks": clocks,
        "problems": problems,
        "site_url": getattr(settings, "OUTFALL_SITE_URL", "").rstrip("/"),
    }
    overdue = sum(1 for c in clocks if c.state == ClockState.OVERDUE)
    subject = (
        f"outfall deadlines for {today.isoformat()}: {overdue} overdue, "
        f"{len(clocks) - overdue} due soon"
    )
    body = render_to_string("deadlines/reminder_email.txt", context)
    try:
        with transaction.atomic():
            sent = ReminderSent.objects.create(
                user=user, sent_on=today, clocks=[c.uid for c in clocks]
            )
            mail_on_commit(subject, body, [user.email], about=sent)
    except IntegrityError:
        return False  # another run recorded this person's reminder for today first
    return True
