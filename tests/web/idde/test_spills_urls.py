"""Every page of the § 267-7/-8/-9 slice is mounted under the `idde` namespace (/dpw/idde/)."""

from __future__ import annotations

import pytest
from django.urls import reverse

NAMES = {
    "discharge_permit_list": [],
    "discharge_permit_apply": [],
    "discharge_permit_detail": [1],
    "discharge_permit_conditions": [1],
    "discharge_permit_issue": [1],
    "discharge_permit_refuse": [1],
    "discharge_permit_inspect": [1],
    "discharge_permit_document": [1],
    "notice_list": [],
    "notice_dye_test_new": [],
    "notice_pool_draining_new": [],
    "notice_advance_approval_new": [],
    "notice_detail": [1],
    "notice_advance_approval_decide": [1],
    "spill_list": [],
    "spill_new": [],
    "spill_detail": [1],
    "spill_notifications": [1],
    "suspension_list": [],
    "suspension_new": [],
    "suspension_detail": [1],
    "suspension_compliance": [1],
    "suspension_reinstate": [1],
    "suspension_document": [1],
}


@pytest.mark.parametrize("name", sorted(NAMES))
def test_every_page_of_the_slice_has_a_url_under_dpw_idde(name):
    assert reverse(f"idde:{name}", args=NAMES[name]).startswith("/dpw/idde/")
