"""DPW URLs (mounted at /dpw/): the DPW index page and the enforcement ledger under enforcement/."""

from outfall.web.apps.enforcement.views import cases, index, steps

app_name = "enforcement"

urlpatterns = [*index.urlpatterns, *cases.urlpatterns, *steps.urlpatterns]
