"""E-mails carry absolute links (issue 11): a mail about a permit case ends with the case page at
the town's public address (OUTFALL_SITE_URL, the demo's own address by default), so an applicant
opens the case from the mail; a resident's status mail links to the status lookup."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.core import mail

from outfall.web.apps.kit.mail import mail_on_commit, site_url
from outfall.web.apps.permits.services.intake import application_withdraw

pytestmark = pytest.mark.django_db


def test_the_site_address_has_a_safe_default_for_the_demo():
    assert django_settings.OUTFALL_SITE_URL.startswith(("http://", "https://"))


def test_a_path_becomes_an_absolute_address_whatever_its_slashes(settings):
    settings.OUTFALL_SITE_URL = "https://permits.example.org/"
    assert site_url("/permits/7/") == "https://permits.example.org/permits/7/"
    assert site_url("permits/7/") == "https://permits.example.org/permits/7/"


def test_a_mail_about_a_case_ends_with_the_case_page_as_an_absolute_link(
    settings, people, make_application, django_capture_on_commit_callbacks
):
    settings.OUTFALL_SITE_URL = "https://permits.example.org"
    case = make_application(people["applicant"])
    with django_capture_on_commit_callbacks(execute=True):
        mail_on_commit("Subject", "Body.", ["a@example.org"], about=case)
    (sent,) = mail.outbox
    assert sent.body == f"Body.\n\nSee the case: https://permits.example.org/permits/{case.pk}/\n"


def test_the_applicant_told_of_a_withdrawal_by_staff_gets_the_case_link(
    settings, people, make_application, django_capture_on_commit_callbacks
):
    settings.OUTFALL_SITE_URL = "https://permits.example.org"
    case = make_application(people["applicant"], state="submitted")
    with django_capture_on_commit_callbacks(execute=True):
        application_withdraw(case, actor=people["clerk"], reason="at the owner's request")
    (sent,) = [m for m in mail.outbox if people["applicant"].email in m.to]
    assert f"https://permits.example.org/permits/{case.pk}/" in sent.body


def test_a_mail_about_a_record_without_a_page_carries_no_link(
    settings, norfolk, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        mail_on_commit("Subject", "Body.", ["a@example.org"], about=norfolk)
    assert mail.outbox[0].body == "Body."
