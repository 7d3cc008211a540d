"""Photos checked before they are decoded: a small file can declare an enormous image (a 481 kB
PNG of 12,500 × 12,500 pixels decodes to over a gigabyte), so the size the header declares is
read first and refused past OUTFALL_PHOTO_MAX_PIXELS (default 50 million, well above any phone
camera's photo)."""

from __future__ import annotations

import io
import warnings

from django.conf import settings

from outfall.kernel.errors import InputError

DEFAULT_MAX_PIXELS = 50_000_000


def max_pixels() -> int:
    return int(getattr(settings, "OUTFALL_PHOTO_MAX_PIXELS", DEFAULT_MAX_PIXELS))


def image_size_checked(content: bytes, *, field: str, name: str) -> tuple[int, int]:
    """The image's declared width and height, read from its header without decoding; an image
    past the pixel bound, or one whose header cannot be read, is refused naming `field` — and so
    is every image when Pillow (a declared dependency) cannot be loaded: unchecked means refused,
    never kept as sent (issue 10, fail closed)."""
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError:
        raise InputError(
            field,
            name,
            "cannot be checked on this server (its image library is missing), so it is not "
            "accepted; send the form without it",
        ) from None

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # measured below
            with Image.open(io.BytesIO(content)) as image:
                width, height = image.size
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise InputError(field, name, "is not a readable image") from None
    if width * height > max_pixels():
        raise InputError(
            field,
            name,
            f"is {width} × {height} pixels; the limit is {max_pixels():,} pixels — send a "
            "smaller copy",
        )
    return width, height
