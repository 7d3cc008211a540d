"""Photos checked before they are decoded: a small file can declare an enormous image (a 481 kB
PNG of 12,500 × 12,500 pixels decodes to over a gigabyte), so the size the header declares is
read first and refused past OUTFALL_PHOTO_MAX_PIXELS (default 50 million, well above any phone
camera's photo). `photo_checked` is the one check of an uploaded photo (a report's, a screening
visit's): extension, magic bytes, declared pixels, decoding, and its metadata (EXIF, GPS)
removed by re-encoding the pixels."""

from __future__ import annotations

import io
import warnings

from django.conf import settings

from outfall.kernel.errors import InputError

DEFAULT_MAX_PIXELS = 50_000_000
IMAGE_SIGNATURES = {
    ".jpg": (b"\xff\xd8\xff",),
    ".jpeg": (b"\xff\xd8\xff",),
    ".png": (b"\x89PNG\r\n\x1a\n",),
    ".webp": (b"RIFF",),
}
IMAGE_FORMATS = {".jpg": "JPEG", ".jpeg": "JPEG", ".png": "PNG", ".webp": "WEBP"}
IMAGE_TYPES = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}
PHOTO_TYPES = {ext: IMAGE_TYPES[fmt] for ext, fmt in IMAGE_FORMATS.items()}
"""The content type a stored photo is served with, by its extension."""


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


def photo_checked(uploaded, *, field: str, max_bytes: int) -> tuple[bytes, str, str]:
    """An uploaded photo checked by extension, size, magic bytes, declared pixels and decoding,
    returned re-encoded without its metadata: (bytes, content type, extension). Each refusal
    names `field` and the file."""
    name = getattr(uploaded, "name", "") or ""
    ext = ("." + name.rsplit(".", 1)[-1].lower()) if "." in name else ""
    if ext not in IMAGE_SIGNATURES:
        raise InputError(field, name, "a photo must be one of: .jpeg, .jpg, .png, .webp")
    if uploaded.size > max_bytes:
        raise InputError(field, name, f"is {uploaded.size} bytes; the limit is {max_bytes}")
    uploaded.seek(0)
    content = uploaded.read()
    sniffed = any(content.startswith(sig) for sig in IMAGE_SIGNATURES[ext])
    if not sniffed or (ext == ".webp" and content[8:12] != b"WEBP"):
        raise InputError(field, name, f"its content is not a {ext} image")
    image_size_checked(content, field=field, name=name)  # refuses it if Pillow cannot load
    from PIL import Image, ImageOps, UnidentifiedImageError

    fmt = IMAGE_FORMATS[ext]
    try:
        Image.open(io.BytesIO(content)).verify()
        image = ImageOps.exif_transpose(Image.open(io.BytesIO(content)))
        if fmt == "JPEG" and image.mode not in ("RGB", "L"):
            image = image.convert("RGB")
        out = io.BytesIO()
        image.save(out, fmt, **({"quality": 90} if fmt in ("JPEG", "WEBP") else {}))
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise InputError(field, name, "is not a readable image") from None
    return out.getvalue(), IMAGE_TYPES[fmt], ext
