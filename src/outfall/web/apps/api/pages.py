"""A person's own API tokens page (mounted at /account/tokens/): the tokens they hold — name,
first characters, created, last used, expires — never a token's secret after the answer that
made it; make a new one (shown once) and revoke one. Signed-in pages only, so a token is never
made with another token."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from outfall.kernel.errors import InputError
from outfall.web.apps.api.forms import TokenForm
from outfall.web.apps.api.selectors import api_token_list_owned, api_token_owned
from outfall.web.apps.api.services import (
    api_token_days,
    api_token_issue,
    api_token_max_days,
    api_token_revoke,
)
from outfall.web.apps.kit.forms import add_input_error


def _form(data=None) -> TokenForm:
    return TokenForm(data, default_days=api_token_days(), max_days=api_token_max_days())


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request):
    """The list and the form; a POST makes a token and shows its secret on this answer only."""
    form = _form(request.POST or None)
    made = raw = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                made, raw = api_token_issue(
                    request.user,
                    actor=request.user,
                    name=form.cleaned_data["name"],
                    days=form.cleaned_data["expires_in_days"],
                    town=getattr(request, "town", None),
                )
            except InputError as exc:
                add_input_error(form, exc)
        if made is None:
            status = 400
        else:
            form = _form()
    return render(
        request,
        "api/tokens.html",
        {
            "form": form,
            "made": made,
            "raw": raw,
            "tokens": api_token_list_owned(request.user),
            "now": timezone.now(),
        },
        status=status,
    )


@login_required
@require_POST
def revoke(request, pk: int):
    """Revoke one of the signed-in person's own tokens (another person's is not found)."""
    token = api_token_owned(request.user, pk)
    if token is None or token.revoked_at is not None:
        raise Http404("You hold no such token")
    api_token_revoke(token, actor=request.user, town=getattr(request, "town", None))
    messages.success(request, f"The token “{token.name}” ({token.prefix}…) no longer works.")
    return redirect("api_tokens:list")


app_name = "api_tokens"

urlpatterns = [
    path("", tokens, name="list"),
    path("<int:pk>/revoke/", revoke, name="revoke"),
]
