"""Open311 GeoReport v2 so existing 311 apps can file and follow reports (§ 267-3).

Every endpoint answers in both of the spec's formats, chosen by the path's extension: `.xml`
(GeoReport v2's default, which FixMyStreet's client asks for) and `.json`.

  GET  /open311/discovery.{xml,json}           the discovery document: where the endpoint is
  GET  /open311/v2/services.{fmt}              the one service: illicit discharge
  GET  /open311/v2/services/<code>.{fmt}       its definition, with attributes
  POST /open311/v2/requests.{fmt}              file a report (api_key if the town requires one)
  GET  /open311/v2/requests.{fmt}              by service_request_id list; or, with an api_key,
                                               the client's own requests (status/date filters)
  GET  /open311/v2/requests/<id>.{fmt}         one request
  GET  /open311/v2/tokens/<token>.{fmt}        the request id a creation token stands for

Readings taken: every read answers only the public fields (status, status_notes,
expected_datetime and the dates) — never the description, place, photo or reporter, which the
Department alone sees. A listing without ids needs an api_key and answers that client's own
requests; the token returned at creation is the reporter's private status secret. Errors are
GeoReport v2 error lists: `[{"code": <http status>, "description": "..."}]` in JSON,
`<errors><error><code/><description/></error></errors>` in XML. The XML elements are the spec's:
a list is an element holding one element per item (`services`/`service`,
`service_requests`/`request`, `attributes`/`attribute`, `values`/`value`, `errors`/`error`,
`endpoints`/`endpoint`, `formats`/`format`), a missing value an empty element.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from xml.etree import ElementTree

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.urls import re_path
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods
from django_ratelimit.core import is_ratelimited

from outfall.kernel.errors import InputError
from outfall.web.apps.core.models import Town
from outfall.web.apps.idde.models import Open311Client, Report
from outfall.web.apps.idde.selectors import reports as sel
from outfall.web.apps.idde.services import reports as svc

AGENCY = "Department of Public Works"
SERVICE_NAME = "Illicit discharge to the storm drains"
SERVICE_DESCRIPTION = (
    "Something other than rainwater going into a storm drain, catch basin, pipe or stream: "
    "dry-weather flow, odours, suds, oil, sewage, dumping (Chapter 267, Article I)."
)
SERVICE_NOTICE = "The Department of Public Works triages new reports on business days."
MAX_SPAN_DAYS = 90
MOST_REQUESTS = 1000
"""The most requests one answer lists, newest first (GeoReport v2 lets a server cap a listing),
and the most ids one query may name."""
SPECIFICATION = "http://wiki.open311.org/GeoReport_v2"
SERVICE_CHANGESET = "2026-12-04T00:00:00Z"
"""When the service list or its definition last changed (the discovery document's changeset)."""
FORMATS = {"xml": "text/xml", "json": "application/json"}
ITEM_ELEMENT = {
    "services": "service",
    "service_requests": "request",
    "attributes": "attribute",
    "values": "value",
    "errors": "error",
    "endpoints": "endpoint",
    "formats": "format",
}
OPEN311_FIELDS = {
    "latitude": "lat",
    "longitude": "long",
    "address": "address_string",
    "contact_email": "email",
    "seen": "attribute[seen]",
    "flowing_now": "attribute[flowing_now]",
}


class Open311Error(Exception):
    def __init__(self, code: int, description: str):
        self.code = code
        self.description = description


@dataclass(frozen=True)
class Answer:
    """What an endpoint answers, before it is written as XML or JSON: the XML root element
    (a list's root names its items through ITEM_ELEMENT), the data and the HTTP status."""

    root: str
    data: list | dict
    status: int = 200


def _xml_value(parent: ElementTree.Element, name: str, value) -> None:
    element = ElementTree.SubElement(parent, name)
    if isinstance(value, list):
        for item in value:
            _xml_value(element, ITEM_ELEMENT[name], item)
    elif isinstance(value, dict):
        for key, inner in value.items():
            _xml_value(element, key, inner)
    elif isinstance(value, bool):
        element.text = "true" if value else "false"
    elif value is not None:
        element.text = str(value)


def render(answer: Answer, fmt: str) -> HttpResponse:
    """The answer in the format the path asked for."""
    if fmt == "json":
        return JsonResponse(answer.data, status=answer.status, safe=False)
    holder = ElementTree.Element("holder")
    _xml_value(holder, answer.root, answer.data)
    body = ElementTree.tostring(holder[0], encoding="utf-8", xml_declaration=True)
    return HttpResponse(body, status=answer.status, content_type="text/xml; charset=utf-8")


def error(code: int, description: str, fmt: str = "json") -> HttpResponse:
    return render(Answer("errors", [{"code": code, "description": description}], code), fmt)


def _read_rate(group, request) -> str:
    return getattr(settings, "OUTFALL_PUBLIC_API_RATE", "60/m")


def _submit_rate(group, request) -> str:
    return getattr(settings, "OUTFALL_REPORT_RATE", "10/h")


def open311_view(view=None, *, jurisdiction: bool = True):
    """Rate-limit per address, resolve the jurisdiction, write the view's Answer in the format
    the path names, and turn errors into GeoReport error lists in that format."""
    if view is None:
        return lambda v: open311_view(v, jurisdiction=jurisdiction)

    def wrapped(request, *args, fmt: str, **kwargs):
        writing = request.method == "POST"
        if is_ratelimited(
            request,
            group="idde.open311.submit" if writing else "idde.open311.read",
            key="ip",
            rate=_submit_rate if writing else _read_rate,
            method=request.method,
            increment=True,
        ):
            response = error(429, "Too many requests from this address; try again later.", fmt)
            response["Retry-After"] = "60"
            return response
        params = request.POST if writing else request.GET
        try:
            if not jurisdiction:
                return render(view(request, *args, **kwargs), fmt)
            town = _jurisdiction(request, params.get("jurisdiction_id", ""))
            return render(view(request, town, *args, **kwargs), fmt)
        except Open311Error as exc:
            return error(exc.code, exc.description, fmt)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def _jurisdiction(request, jurisdiction_id: str) -> Town:
    if jurisdiction_id:
        town = Town.objects.filter(slug=jurisdiction_id).first()
        if town is None:
            raise Open311Error(404, f"jurisdiction_id {jurisdiction_id!r} is not served here")
        return town
    if request.town is None:
        raise Open311Error(404, "no jurisdiction is served here")
    return request.town


def _client(town, api_key: str) -> Open311Client | None:
    """The registered client an api_key stands for; a wrong key is refused (403)."""
    if not api_key:
        return None
    digest = hashlib.sha256(api_key.encode()).hexdigest()
    client = Open311Client.objects.filter(town=town, key_digest=digest, active=True).first()
    if client is None:
        raise Open311Error(403, "api_key is not valid for this jurisdiction")
    return client


def _service() -> dict:
    return {
        "service_code": svc.SERVICE_CODE,
        "service_name": SERVICE_NAME,
        "description": SERVICE_DESCRIPTION,
        "metadata": True,
        "type": "realtime",
        "keywords": "stormwater, illicit discharge, storm drain, pollution",
        "group": "Stormwater",
    }


@require_GET
@open311_view(jurisdiction=False)
def discovery(request):
    """GET discovery.{xml,json}: where this GeoReport v2 endpoint is and what it speaks."""
    return Answer(
        "discovery",
        {
            "changeset": SERVICE_CHANGESET,
            "contact": (
                "The Department of Public Works of the town named by jurisdiction_id "
                "(the town's short name, e.g. norfolk)."
            ),
            "key_service": (
                "An api_key is issued by the town's Department of Public Works, which registers "
                "each 311 application; a town may take requests without one."
            ),
            "endpoints": [
                {
                    "specification": SPECIFICATION,
                    "url": request.build_absolute_uri("/" + V2).rstrip("/"),
                    "changeset": SERVICE_CHANGESET,
                    "type": "production",
                    "formats": list(FORMATS.values()),
                }
            ],
        },
    )


@require_GET
@open311_view
def services_list(request, town):
    """GET services.{fmt}: the services this jurisdiction takes."""
    return Answer("services", [_service()])


@require_GET
@open311_view
def service_definition(request, town, code: str):
    """GET services/<code>.{fmt}: the attributes a request of this service may carry."""
    if code != svc.SERVICE_CODE:
        raise Open311Error(404, f"service_code {code!r} is not offered")
    attributes = [
        {
            "variable": True,
            "code": "seen",
            "datatype": "multivaluelist",
            "required": False,
            "datatype_description": "Pick every sign that applies.",
            "order": 1,
            "description": "What did you see?",
            "values": [{"key": k, "name": n} for k, n in svc.SEEN_CHOICES],
        },
        {
            "variable": True,
            "code": "flowing_now",
            "datatype": "singlevaluelist",
            "required": False,
            "datatype_description": "",
            "order": 2,
            "description": "Was it flowing when you saw it?",
            "values": [{"key": k, "name": n} for k, n in svc.FLOWING_CHOICES],
        },
    ]
    return Answer("service_definition", {"service_code": code, "attributes": attributes})


@csrf_exempt
@require_http_methods(["GET", "POST"])
@open311_view
def requests_collection(request, town):
    """POST requests.{fmt} files a report; GET requests.{fmt} queries them."""
    if request.method == "POST":
        return _create(request, town)
    return _query(request, town)


def _create(request, town):
    p = request.POST
    client = _client(town, p.get("api_key", ""))
    if client is None and svc.report_settings(town).open311_api_key_required:
        raise Open311Error(403, "api_key is required by this jurisdiction")
    code = p.get("service_code", "")
    if not code:
        raise Open311Error(400, "service_code is required")
    if code != svc.SERVICE_CODE:
        raise Open311Error(404, f"service_code {code!r} is not offered")
    if not (p.get("lat") and p.get("long")) and not p.get("address_string"):
        raise Open311Error(400, "a location is required: lat and long, or address_string")
    name = " ".join(x for x in (p.get("first_name", ""), p.get("last_name", "")) if x)
    try:
        submitted = svc.report_submit(
            town,
            description=p.get("description", ""),
            latitude=_number("lat", p.get("lat")),
            longitude=_number("long", p.get("long")),
            address=p.get("address_string", ""),
            seen=p.getlist("attribute[seen][]") or p.getlist("attribute[seen]"),
            flowing_now=p.get("attribute[flowing_now]", ""),
            media_url=p.get("media_url", ""),
            contact_name=name,
            contact_email=p.get("email", ""),
            contact_phone=p.get("phone", ""),
            source="open311",
            open311_client=client,
        )
    except InputError as exc:
        field = OPEN311_FIELDS.get(exc.field, exc.field)
        section = f" ({exc.citation})" if exc.citation else ""
        raise Open311Error(400, f"{field} {exc.value}: {exc.why}{section}") from None
    return Answer(
        "service_requests",
        [
            {
                "service_request_id": submitted.report.tracking_number,
                "token": submitted.token,
                "service_notice": SERVICE_NOTICE,
                "account_id": None,
            }
        ],
        status=201,
    )


def _number(field: str, value: str | None) -> float | None:
    if value in (None, ""):
        return None
    try:
        return float(value)
    except ValueError:
        raise Open311Error(400, f"{field} {value!r} is not a number") from None


def _query(request, town):
    g = request.GET
    ids = [i.strip() for i in g.get("service_request_id", "").split(",") if i.strip()]
    if len(ids) > MOST_REQUESTS:
        raise Open311Error(400, f"service_request_id names at most {MOST_REQUESTS} requests")
    if ids:
        reports = Report.objects.filter(town=town, tracking_number__in=ids)
        return Answer("service_requests", [_public(r) for r in reports.order_by("submitted_at")])
    client = _client(town, g.get("api_key", ""))
    if client is None:
        raise Open311Error(
            403,
            "requests are answered by service_request_id; a listing needs the api_key of the "
            "client that filed them",
        )
    reports = Report.objects.filter(town=town, open311_client=client)
    codes = [c for c in g.get("service_code", "").split(",") if c]
    if codes:
        reports = reports.filter(service_code__in=codes)
    start, end = _window(g.get("start_date", ""), g.get("end_date", ""))
    reports = reports.filter(submitted_at__gte=start, submitted_at__lte=end)
    statuses = [s for s in g.get("status", "").split(",") if s]
    bad = [s for s in statuses if s not in ("open", "closed")]
    if bad:
        raise Open311Error(400, f"status {bad[0]!r}: use open or closed")
    if statuses:
        wanted = [r for r in Report.Status.values if _open311_status(r) in statuses]
        reports = reports.filter(status__in=wanted)
    newest = reports.order_by("-submitted_at")[:MOST_REQUESTS]
    return Answer("service_requests", [_public(r) for r in newest])


def _window(start_raw: str, end_raw: str) -> tuple[dt.datetime, dt.datetime]:
    """The requested_datetime window: 90 days by default, never longer (GeoReport v2)."""
    span = dt.timedelta(days=MAX_SPAN_DAYS)
    start = _moment("start_date", start_raw)
    end = _moment("end_date", end_raw)
    if start is None and end is None:
        end = timezone.now()
    if start is None:
        start = end - span
    if end is None:
        end = start + span
    if end < start:
        raise Open311Error(400, "end_date is before start_date")
    if end - start > span:
        raise Open311Error(
            400, f"start_date to end_date may not span more than {MAX_SPAN_DAYS} days"
        )
    return start, end


def _moment(field: str, raw: str) -> dt.datetime | None:
    if not raw:
        return None
    moment = parse_datetime(raw)
    if moment is None and (day := parse_date(raw)) is not None:
        moment = dt.datetime.combine(day, dt.time())
    if moment is None:
        raise Open311Error(400, f"{field} {raw!r} is not a w3c date-time (2026-06-01T00:00:00Z)")
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)


def _open311_status(status: str) -> str:
    return "closed" if status in (Report.Status.CLOSED, Report.Status.DUPLICATE) else "open"


def _w3c(moment: dt.datetime | None) -> str | None:
    return timezone.localtime(moment).isoformat(timespec="seconds") if moment else None


def _public(report: Report) -> dict:
    """The public fields of a request: never its description, place, photo or reporter."""
    return {
        "service_request_id": report.tracking_number,
        "status": _open311_status(report.status),
        "status_notes": report.status_note or None,
        "service_name": SERVICE_NAME,
        "service_code": report.service_code,
        "agency_responsible": AGENCY,
        "service_notice": SERVICE_NOTICE,
        "requested_datetime": _w3c(report.submitted_at),
        "updated_datetime": _w3c(report.updated_at),
        "expected_datetime": _w3c(report.expected_at),
    }


@require_GET
@open311_view
def request_single(request, town, request_id: str):
    """GET requests/<id>.{fmt}: one request, as a one-item list."""
    report = Report.objects.filter(town=town, tracking_number=request_id).first()
    if report is None:
        raise Open311Error(404, f"service_request_id {request_id!r} not found")
    return Answer("service_requests", [_public(report)])


@require_GET
@open311_view
def token_lookup(request, town, token: str):
    """GET tokens/<token>.{fmt}: the service_request_id a creation token stands for."""
    report = sel.report_get_by_open311_token(town, token)
    if report is None:
        raise Open311Error(404, "token not found")
    return Answer(
        "service_requests", [{"service_request_id": report.tracking_number, "token": token}]
    )


V2 = "open311/v2/"
FMT = r"\.(?P<fmt>xml|json)$"
NAME = r"(?P<{}>[^/]+?)"
public_urlpatterns = [
    re_path(r"^open311/discovery" + FMT, discovery, name="open311_discovery"),
    re_path(rf"^{V2}services" + FMT, services_list, name="open311_services"),
    re_path(
        rf"^{V2}services/{NAME.format('code')}" + FMT, service_definition, name="open311_service"
    ),
    re_path(rf"^{V2}requests" + FMT, requests_collection, name="open311_requests"),
    re_path(
        rf"^{V2}requests/{NAME.format('request_id')}" + FMT, request_single, name="open311_request"
    ),
    re_path(rf"^{V2}tokens/{NAME.format('token')}" + FMT, token_lookup, name="open311_token"),
]
