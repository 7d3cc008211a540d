"""An uploaded PDF is opened and its pages counted, not only sniffed: a file that merely starts
with `%PDF-` is refused, as are an encrypted one and one past the page or size bound — each
refusal naming the field and the file (issue 10, bounded and clean input)."""

from __future__ import annotations

import pytest

from outfall.compliance.pdf import render_pdf
from outfall.kernel.errors import InputError
from outfall.web.apps.kit.pdfs import pdf_checked
from tests.web.pdfs import real_pdf


def _refusal(content: bytes, name: str = "plan.pdf") -> InputError:
    with pytest.raises(InputError) as refused:
        pdf_checked(content, field="file", name=name)
    assert refused.value.field == "file" and refused.value.value == name
    return refused.value


def test_a_pdf_made_by_the_projects_own_renderer_is_accepted_with_its_page_count():
    html = "<!DOCTYPE html><html lang='en'><body><h1>Plan</h1></body></html>"
    assert pdf_checked(render_pdf(html), field="file", name="plan.pdf") == 1


def test_a_pdf_of_several_pages_is_counted():
    assert pdf_checked(real_pdf(3), field="file", name="plan.pdf") == 3


@pytest.mark.parametrize(
    "garbage",
    [
        b"%PDF-1.4 garbage garbage",
        b"%PDF-1.7\n" + bytes(range(256)) * 40,
        b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
    ],
)
def test_a_file_that_only_starts_like_a_pdf_is_refused(garbage):
    refused = _refusal(garbage, "drawings.pdf")
    assert "cannot be opened" in refused.why or "no pages" in refused.why


def test_a_file_that_does_not_start_like_a_pdf_is_refused():
    assert "not a PDF" in _refusal(b"GIF89a not a pdf").why


def test_an_encrypted_pdf_is_refused_since_the_board_must_be_able_to_read_it():
    assert "encrypted" in _refusal(real_pdf(password="secret")).why


def test_a_pdf_past_the_page_bound_is_refused(settings):
    settings.OUTFALL_PDF_MAX_PAGES = 2
    assert "has 3 pages; the limit is 2 pages" in _refusal(real_pdf(3)).why
    assert pdf_checked(real_pdf(2), field="file", name="plan.pdf") == 2


def test_a_pdf_past_the_size_bound_is_refused(settings):
    content = real_pdf()
    settings.UPLOAD_MAX_BYTES = len(content) - 1
    assert f"the limit is {len(content) - 1:,} bytes" in _refusal(content).why
