"""Tags of a list page: `{% export_links %}` (the page's list as CSV and XLSX, with its own
filters), `{% town_scope_links scope %}` (the selected town or all the reader's towns) and
`{% pager page what %}` (a page of `core.pages.page_of`: how many, and the pages before and
after with the page's own filters)."""

from __future__ import annotations

from django import template

from outfall.web.apps.kit.exports import EXPORT_PARAM
from outfall.web.apps.kit.search import ALL_TOWNS, ALL_TOWNS_PARAM

register = template.Library()

FORMATS = (("csv", "CSV"), ("xlsx", "Excel (XLSX)"))


def _with(request, **changes) -> str:
    """The request's own address with `changes` to its query (None drops a parameter)."""
    query = request.GET.copy()
    for key, value in changes.items():
        query.pop(key, None)
        if value is not None:
            query[key] = value
    return f"{request.path}?{query.urlencode()}" if query else request.path


@register.inclusion_tag("kit/_export_links.html", takes_context=True)
def export_links(context, what: str = "this list"):
    """Links to download `what` in each format: the request's query with `export=` set."""
    request = context["request"]
    links = [{"href": _with(request, **{EXPORT_PARAM: f}), "label": label} for f, label in FORMATS]
    return {"links": links, "what": what}


@register.inclusion_tag("kit/_town_scope.html", takes_context=True)
def town_scope_links(context, scope, what: str = "cases"):
    """For staff of several towns: which towns the list shows, and the link to the other view."""
    request = context["request"]
    return {
        "scope": scope,
        "what": what,
        "all_href": _with(request, **{ALL_TOWNS_PARAM: ALL_TOWNS, EXPORT_PARAM: None}),
        "one_href": _with(request, **{ALL_TOWNS_PARAM: None, EXPORT_PARAM: None}),
    }


@register.inclusion_tag("kit/_pager.html", takes_context=True)
def pager(context, page, what: str = "rows"):
    """How many `what` the list holds, which page this is, and links to the pages before and
    after it: the request's own query with `page=` changed."""
    request = context["request"]

    def link(number: int) -> str:
        return _with(request, page=str(number), **{EXPORT_PARAM: None})

    return {
        "page": page,
        "what": what,
        "previous": link(page.previous_page_number()) if page.has_previous() else "",
        "next": link(page.next_page_number()) if page.has_next() else "",
    }
