"""Spreadsheet cells: the mailing list the clerk exports cannot run an applicant's formula, and
the same file read back by the app's own import is the list as it was (a lossless round trip)."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from outfall.web.apps.kit.cells import cell_for_export, cell_from_import
from outfall.web.apps.permits.models import Abutter
from outfall.web.apps.permits.services.intake import abutters_parse_csv

FORMULAS = ['=HYPERLINK("http://x","y")', "+1", "-2", "@SUM(A1)", "\tx", "\rx"]


@pytest.mark.parametrize("value", FORMULAS)
def test_a_formula_like_cell_is_exported_as_text_and_read_back_as_typed(value):
    exported = cell_for_export(value)
    assert exported.startswith("'")
    assert cell_from_import(exported) == value


@pytest.mark.parametrize("value", ["Main St", "12-34", "'quoted", "", "O'Brien"])
def test_other_cells_pass_both_ways_unchanged(value):
    assert cell_for_export(value) == value
    assert cell_from_import(value) == value


@pytest.mark.django_db
def test_the_mailing_csv_round_trips_through_the_abutters_import(client, people, make_application):
    case = make_application(people["applicant"], state="complete")
    Abutter.objects.create(
        application=case,
        parcel_id="14-30",
        name='=HYPERLINK("http://evil.example","click")',
        mailing_address="-1 Main St",
    )
    Abutter.objects.create(
        application=case, parcel_id="14-31", name="B. Neighbour", mailing_address="2 Main St"
    )
    client.force_login(people["clerk"])
    response = client.get(reverse("permits:hearing_mailing_csv", args=[case.pk]))
    text = response.content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["parcel", "name", "mailing_address"]
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows[1:] for cell in row)
    back = abutters_parse_csv("abutters.csv", text)
    assert back == [
        {
            "parcel": "14-30",
            "name": '=HYPERLINK("http://evil.example","click")',
            "mailing_address": "-1 Main St",
        },
        {"parcel": "14-31", "name": "B. Neighbour", "mailing_address": "2 Main St"},
    ]
