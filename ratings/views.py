from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from . import selectors
from .models import PROVISIONAL_BELOW

PAGE_SIZE = 100


@require_GET
def ratings_page(request: HttpRequest) -> HttpResponse:
    """Everyone rated, best first, with a search by name (public)."""
    query = (request.GET.get("q") or "").strip()[:100]
    page = Paginator(selectors.rows(query), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "ratings/ratings.html", {"page": page, "query": query, "provisional_below": PROVISIONAL_BELOW})
