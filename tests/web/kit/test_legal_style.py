"""The legal paper's filters and signature block are built into every template, a town's own
document template included (which may load nothing): dates "December 4, 2026", times
"7:00 p.m.", the signature lines of `kit/_signature.html` (issue 11)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.template import Context, engines

from outfall.web.apps.kit.documents import Signature
from outfall.web.apps.permits.documents import town_template_compile


def render(source: str, **context) -> str:
    return engines["django"].from_string(source).render(context)


def test_dates_and_times_need_no_load_and_read_in_the_towns_time_zone():
    utc = dt.datetime(2026, 12, 16, 0, 0, tzinfo=ZoneInfo("UTC"))  # 7:00 p.m. in Norfolk
    assert render("{{ d|legal_date }}", d=dt.date(2026, 12, 4)) == "December 4, 2026"
    assert render("{{ m|legal_time }}", m=utc) == "7:00 p.m."
    assert render('{{ m|legal_datetime:"weekday" }}', m=utc) == (
        "Tuesday, December 15, 2026, at 7:00 p.m."
    )
    assert render("{{ d|legal_day_of }}", d=dt.date(2026, 12, 4)) == "the 4th day of December, 2026"


def test_text_a_town_typed_in_place_of_a_date_is_shown_as_typed():
    assert render("{{ d|legal_date }}", d="to be set") == "to be set"
    assert render("{{ d|legal_date|default:'—' }}", d=None) == "—"


def test_the_letterhead_address_does_not_repeat_the_issuer():
    address = "Planning Board, Town Hall, One Liberty Lane"
    assert render('{{ a|after_issuer:"Planning Board" }}', a=address) == (
        "Town Hall, One Liberty Lane"
    )
    assert render('{{ a|after_issuer:"Planning Board" }}', a="Town Hall") == "Town Hall"


def test_a_signature_block_has_a_line_a_name_a_title_and_a_date_line():
    html = render(
        "{% signatures s %}",
        s=[
            Signature(for_body="For the Planning Board", name="Casey Example", title="Clerk"),
            Signature(title="Member, Planning Board", signed_on=dt.date(2026, 12, 4)),
        ],
    )
    assert html.count('class="signature-block"') == 2 and html.count("signature-rule") == 2
    assert "For the Planning Board" in html and "Casey Example" in html and "Clerk" in html
    assert 'class="date-line"' in html and "Date: December 4, 2026" in html


def test_a_towns_own_template_uses_the_same_filters_and_signature_block():
    body = "<p>{{ today|legal_date }}</p>{% signatures signatures %}"
    html = town_template_compile(body, "hearing_notice").render(
        Context({"today": dt.date(2026, 12, 4), "signatures": [Signature(name="Casey Example")]})
    )
    assert "December 4, 2026" in html and "Casey Example" in html
