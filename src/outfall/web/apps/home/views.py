"""The home page: each person's starting page."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import path

from outfall.web.apps.home.search import search
from outfall.web.apps.home.selectors import home_summary


def home(request):
    """Each person's starting page: their work or their applications, and the public record."""
    return render(
        request,
        "home/home.html",
        {"home": home_summary(request.user, getattr(request, "town", None))},
    )


app_name = "home"
urlpatterns = [path("", home, name="home"), path("search/", search, name="search")]
