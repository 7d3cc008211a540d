"""The one way a list page reads a page (issue 13): `page_of`, 50 rows a page by `?page=`,
shown with `{% pager %}` (`kit_lists`). It lives on the lowest floor so every app's lists,
the jobs' included, page alike."""

from __future__ import annotations

from django.core.paginator import Page, Paginator

PER_PAGE = 50
"""Rows per page of a staff list (its download holds the whole filtered list, `kit.exports`)."""


def page_of(request, rows, per_page: int = PER_PAGE) -> Page:
    """The page of `rows` that `?page=` asks for (the first for none, the last past the end):
    a list page reads `per_page` rows and one count however many rows there are."""
    return Paginator(rows, per_page).get_page(request.GET.get("page"))
