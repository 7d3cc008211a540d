"""A photo is measured before it is decoded: a small file declaring an enormous image (a
decompression bomb) is refused naming the field and its size, from the public report form and
from an inspection alike; an ordinary photo passes."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from outfall.kernel.errors import InputError
from outfall.web.apps.kit.images import image_size_checked


def png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("1", (width, height)).save(out, "PNG", optimize=True)
    return out.getvalue()


def test_a_12500_pixel_square_png_of_a_few_hundred_kilobytes_is_refused_before_decoding():
    content = png(12_500, 12_500)
    assert len(content) < 2_000_000
    with pytest.raises(InputError) as refused:
        image_size_checked(content, field="photo", name="bomb.png")
    assert refused.value.field == "photo"
    assert "12500 × 12500 pixels" in refused.value.why


def test_an_ordinary_photo_passes_with_its_size():
    assert image_size_checked(png(1200, 900), field="photo", name="ok.png") == (1200, 900)


def test_the_bound_follows_the_setting(settings):
    settings.OUTFALL_PHOTO_MAX_PIXELS = 1000
    with pytest.raises(InputError):
        image_size_checked(png(40, 40), field="file", name="small.png")


def test_bytes_that_are_no_image_are_refused():
    with pytest.raises(InputError, match="not a readable image"):
        image_size_checked(b"\x89PNG\r\n\x1a\nnot really", field="photo", name="x.png")


@pytest.mark.django_db
def test_the_public_report_form_refuses_the_bomb(norfolk):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from outfall.web.apps.idde.services.reports import report_submit

    bomb = SimpleUploadedFile("bomb.png", png(12_500, 12_500), content_type="image/png")
    with pytest.raises(InputError) as refused:
        report_submit(
            norfolk,
            description="Grey water from a pipe",
            latitude=42.119,
            longitude=-71.325,
            photo=bomb,
        )
    assert refused.value.field == "photo"
