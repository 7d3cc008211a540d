"""Permit URLs: the shared case pages plus each stage's own module of views."""

import importlib

app_name = "permits"

STAGE_VIEW_MODULES = (
    "cases",
    "intake",
    "hearing",
    "construction",
    "files",
    "public",
    "om",
    "finder",
    "templates_admin",
)

urlpatterns = []
for _name in STAGE_VIEW_MODULES:
    _module_name = f"outfall.web.apps.permits.views.{_name}"
    try:
        _module = importlib.import_module(_module_name)
    except ModuleNotFoundError as exc:
        if exc.name != _module_name:
            raise
        continue
    urlpatterns += _module.urlpatterns
