"""How API callers prove who they are: a bearer token, or the browser's session with CSRF."""

from __future__ import annotations

from django.conf import settings
from ninja.errors import AuthenticationError, HttpError
from ninja.security import APIKeyCookie, HttpBearer
from ninja.utils import check_csrf

from outfall.web.apps.api.selectors import api_token_find, api_token_refusal
from outfall.web.apps.api.services import api_token_used

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


class ApiTokenAuth(HttpBearer):
    """`Authorization: Bearer <token>`; no CSRF is needed, since no browser sends it by itself.

    A token that is known but revoked or expired (or whose owner's account is closed) is refused
    with 401 and the reason; an unknown one falls through to the session (then 401)."""

    def authenticate(self, request, token: str):
        found = api_token_find(token)
        if found is None:
            return None
        refusal = api_token_refusal(found)
        if refusal:
            raise AuthenticationError(401, refusal)
        api_token_used(found)
        request.user = found.user
        return found.user


class SessionCsrfAuth(APIKeyCookie):
    """The signed-in browser session; unsafe methods must carry the CSRF token (X-CSRFToken).

    Unlike ninja's own session auth, an anonymous caller gets 401, and only a signed-in caller
    who forgot the CSRF token gets 403.
    """

    param_name = settings.SESSION_COOKIE_NAME

    def __init__(self) -> None:
        super().__init__(csrf=False)

    def authenticate(self, request, key):
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        if request.method not in SAFE_METHODS and check_csrf(request) is not None:
            raise HttpError(403, "CSRF check failed: send the X-CSRFToken header")
        return user


AUTH = [ApiTokenAuth(), SessionCsrfAuth()]
