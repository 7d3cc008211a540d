"""The DPW's illicit discharge pages under /dpw/idde/: each area's view module, listed
explicitly (reports, investigations, § 267-7 permits and notices, § 267-9 spills, § 267-8
suspensions, Open311 clients)."""

from outfall.web.apps.idde.views import (
    discharge_permits,
    investigations,
    notices,
    open311_clients,
    reports,
    spills,
    suspensions,
)

app_name = "idde"

VIEW_MODULES = (
    reports,
    investigations,
    discharge_permits,
    notices,
    spills,
    suspensions,
    open311_clients,
)

urlpatterns = [pattern for module in VIEW_MODULES for pattern in module.urlpatterns]
