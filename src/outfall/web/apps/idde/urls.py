"""The DPW's illicit discharge pages under /dpw/idde/: each area's view module, if present.

Areas are built by different engineers (reports, investigations, § 267-7 permits and notices,
§ 267-9 spills); a module not yet written is skipped, any other import error is raised.
"""

import importlib

app_name = "idde"

VIEW_MODULES = (
    "reports",
    "investigations",
    "discharge_permits",
    "notices",
    "spills",
    "suspensions",
    "open311_clients",
)


def optional_view_module(name: str):
    """The view module `name` of this app, or None when it does not exist (yet)."""
    module_name = f"outfall.web.apps.idde.views.{name}"
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return None


urlpatterns = []
for _name in VIEW_MODULES:
    _module = optional_view_module(_name)
    if _module is not None:
        urlpatterns += getattr(_module, "urlpatterns", [])
