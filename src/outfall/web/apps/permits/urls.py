"""Permit URLs: the shared case pages plus each stage's own module of views, listed explicitly."""

from outfall.web.apps.permits.views import (
    board,
    cases,
    construction,
    files,
    finder,
    hearing,
    intake,
    om,
    packet,
    public,
    registers,
    templates_admin,
)

app_name = "permits"

STAGE_VIEW_MODULES = (
    cases,
    intake,
    packet,  # before hearing: its <step> route would take packet/
    hearing,
    board,
    construction,
    files,
    public,
    om,
    finder,
    registers,
    templates_admin,
)

urlpatterns = [pattern for module in STAGE_VIEW_MODULES for pattern in module.urlpatterns]
