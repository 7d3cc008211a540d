"""API URLs (mounted at /api/): the endpoints, /api/docs and /api/openapi.json.

Every 4xx under /api/ is the API's `ErrorOut`, including the two Django would otherwise answer
in HTML or plain text: an address no operation answers (404) and a method an address does not
take (405, with its `Allow` header).
"""

from functools import wraps

from django.http import JsonResponse
from django.urls import URLPattern, re_path
from django.views.decorators.csrf import csrf_exempt

from outfall.web.apps.api.api import api
from outfall.web.apps.api.contract import error_body, not_found_body


def _method_refusal_in_envelope(view):
    @wraps(view)
    def answer(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if response.status_code != 405:
            return response
        refused = JsonResponse(error_body(405), status=405)
        refused["Allow"] = response["Allow"]
        return refused

    return answer


def _enveloped(pattern):
    if not isinstance(pattern, URLPattern):
        return pattern
    return URLPattern(
        pattern.pattern,
        _method_refusal_in_envelope(pattern.callback),
        pattern.default_args,
        pattern.name,
    )


@csrf_exempt
def no_such_address(request, rest: str = ""):
    """Any other address under /api/: a 404 in the envelope."""
    return JsonResponse(not_found_body(request.path), status=404)


patterns, _app, _namespace = api.urls
urlpatterns = [*(_enveloped(p) for p in patterns), re_path(r"^(?P<rest>.*)$", no_such_address)]
app_name = _namespace
