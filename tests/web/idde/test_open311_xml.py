"""Open311 GeoReport v2 in XML, the spec's default format, and the discovery document.

Every endpoint answers at `.xml` as well as `.json`. The XML is read back with a real XML parser
(the standard library's ElementTree) against the element names of the GeoReport v2 spec, and a
real GeoReport client (`georeport`, in its XML mode, which parses with xmltodict) follows a
request filed at requests.xml, as FixMyStreet's Open311 client would.
"""

from __future__ import annotations

from xml.etree import ElementTree

import pytest
import requests
from django.core.cache import cache
from django.test import override_settings
from georeport import GeoReport

from tests.web.idde.test_open311_client import post_request

pytestmark = pytest.mark.django_db

SERVICE = ["service_code", "service_name", "description", "metadata", "type", "keywords", "group"]
REQUEST = [
    "service_request_id",
    "status",
    "status_notes",
    "service_name",
    "service_code",
    "agency_responsible",
    "service_notice",
    "requested_datetime",
    "updated_datetime",
    "expected_datetime",
]
ATTRIBUTE = ["variable", "code", "datatype", "required", "datatype_description", "order"]


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def xml_of(response, status: int = 200) -> ElementTree.Element:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("text/xml")
    assert response.content.startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    return ElementTree.fromstring(response.content)


def children(element: ElementTree.Element) -> list[str]:
    return [child.tag for child in element]


def filed(client, **extra) -> ElementTree.Element:
    data = {
        "jurisdiction_id": "norfolk",
        "service_code": "illicit_discharge",
        "address_string": "1 Liberty Lane",
        "description": "Grey water running from the outfall in dry weather",
        **extra,
    }
    return xml_of(client.post("/open311/v2/requests.xml", data), 201)


def test_the_service_list_is_services_holding_one_service_with_the_specs_fields(client, norfolk):
    root = xml_of(client.get("/open311/v2/services.xml", {"jurisdiction_id": "norfolk"}))
    assert root.tag == "services" and children(root) == ["service"]
    service = root.find("service")
    assert children(service) == SERVICE
    assert service.findtext("service_code") == "illicit_discharge"
    assert service.findtext("metadata") == "true" and service.findtext("type") == "realtime"


def test_a_service_definition_lists_its_attributes_and_their_values(client, norfolk):
    url = "/open311/v2/services/illicit_discharge.xml"
    root = xml_of(client.get(url, {"jurisdiction_id": "norfolk"}))
    assert root.tag == "service_definition"
    assert children(root) == ["service_code", "attributes"]
    attributes = root.findall("attributes/attribute")
    assert [a.findtext("code") for a in attributes] == ["seen", "flowing_now"]
    for attribute in attributes:
        assert children(attribute)[: len(ATTRIBUTE)] == ATTRIBUTE
        assert attribute.findtext("variable") == "true"
        assert attribute.findtext("required") == "false"
        values = attribute.findall("values/value")
        assert values and all(children(v) == ["key", "name"] for v in values)


def test_a_request_filed_at_requests_xml_answers_its_id_and_token(client, norfolk):
    root = filed(client)
    assert root.tag == "service_requests" and children(root) == ["request"]
    answer = root.find("request")
    assert children(answer) == ["service_request_id", "token", "service_notice", "account_id"]
    assert answer.findtext("service_request_id").startswith("R-")
    assert answer.find("account_id").text is None


def test_a_request_read_back_in_xml_carries_only_the_public_fields(client, norfolk):
    request_id = filed(client).findtext("request/service_request_id")
    one = xml_of(client.get(f"/open311/v2/requests/{request_id}.xml"))
    assert one.tag == "service_requests"
    [request] = one.findall("request")
    assert children(request) == REQUEST
    assert request.findtext("status") == "open"
    assert request.find("expected_datetime").text is None
    listed = xml_of(client.get("/open311/v2/requests.xml", {"service_request_id": request_id}))
    assert [r.findtext("service_request_id") for r in listed] == [request_id]


def test_a_creation_token_is_exchanged_in_xml(client, norfolk):
    answer = filed(client).find("request")
    token = answer.findtext("token")
    root = xml_of(client.get(f"/open311/v2/tokens/{token}.xml"))
    assert root.findtext("request/service_request_id") == answer.findtext("service_request_id")
    assert root.findtext("request/token") == token


@pytest.mark.parametrize(
    "url,code",
    [
        ("/open311/v2/services/potholes.xml", 404),
        ("/open311/v2/requests/R-0000-NONE.xml", 404),
        ("/open311/v2/requests.xml", 403),
    ],
)
def test_a_refusal_in_xml_is_errors_holding_one_error(client, norfolk, url, code):
    root = xml_of(client.get(url, {"jurisdiction_id": "norfolk"}), code)
    assert root.tag == "errors" and children(root) == ["error"]
    assert children(root.find("error")) == ["code", "description"]
    assert root.findtext("error/code") == str(code)


def test_a_bad_filing_in_xml_names_the_field_and_the_section(client, norfolk):
    data = {"jurisdiction_id": "norfolk", "service_code": "illicit_discharge"}
    data.update(lat="41.0", long="-71.3250", description="Foam at the outfall")
    root = xml_of(client.post("/open311/v2/requests.xml", data), 400)
    description = root.findtext("error/description")
    assert "lat 41.0" in description and "§ 267-3" in description


@override_settings(OUTFALL_PUBLIC_API_RATE="2/m")
def test_too_many_reads_are_refused_in_the_format_asked_for(client, norfolk):
    for _ in range(2):
        client.get("/open311/v2/services.xml", {"jurisdiction_id": "norfolk"})
    root = xml_of(client.get("/open311/v2/services.xml", {"jurisdiction_id": "norfolk"}), 429)
    assert root.findtext("error/code") == "429"


def test_an_unknown_format_is_not_an_endpoint(client, norfolk):
    assert client.get("/open311/v2/services.csv").status_code == 404


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_the_discovery_document_points_at_the_v2_endpoint_in_both_formats(client, fmt):
    response = client.get(f"/open311/discovery.{fmt}")
    if fmt == "xml":
        root = xml_of(response)
        assert root.tag == "discovery"
        assert children(root) == ["changeset", "contact", "key_service", "endpoints"]
        endpoint = root.find("endpoints/endpoint")
        assert children(endpoint) == ["specification", "url", "changeset", "type", "formats"]
        found = {
            "specification": endpoint.findtext("specification"),
            "url": endpoint.findtext("url"),
            "formats": [f.text for f in endpoint.findall("formats/format")],
        }
    else:
        [found] = response.json()["endpoints"]
    assert found["specification"] == "http://wiki.open311.org/GeoReport_v2"
    assert found["url"] == "http://testserver/open311/v2"
    assert found["formats"] == ["text/xml", "application/json"]


@pytest.mark.django_db(transaction=True)
def test_a_georeport_client_in_xml_mode_follows_what_it_discovered(live_server, norfolk):
    discovered = requests.get(f"{live_server.url}/open311/discovery.json", timeout=10).json()
    root = discovered["endpoints"][0]["url"]
    client311 = GeoReport(root, jurisdiction="norfolk", output_format="xml")
    service = client311.get_service_list()
    assert service["service_code"] == "illicit_discharge"  # xmltodict: a one-item list is a dict
    definition = client311.get_service_definition("illicit_discharge")
    assert definition["service_code"] == "illicit_discharge"
    created = post_request(root)
    request_id = created.json()[0]["service_request_id"]
    one = client311.get_service_request(request_id)
    assert one["service_request_id"] == request_id and one["status"] == "open"
    assert "description" not in one
