"""What a web process does once, when it starts, that its first request would otherwise do.

A fresh process imported every view and API module, compiled each template and read the
translation catalogues on the first request that needed them: that request took 20-40 times a
warm one (benchmarks/cold_start.py), and after a deploy or a worker's restart that is the request
of a phone in the hall. :func:`warm` does it before the process accepts a request (called from
``config/wsgi.py``). It touches neither the database nor the cache: a process whose database is
not up yet still starts, and a forked worker shares no connection.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.db import connections
from django.forms.renderers import get_default_renderer
from django.template import TemplateDoesNotExist, TemplateSyntaxError, engines
from django.urls import URLResolver, get_resolver
from django.utils import formats, translation
from django.utils.module_loading import import_string


def warm() -> None:
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            # imports every URL module, hence every view, API and serializer; the map of names to
            # addresses is kept per language
            get_resolver().reverse_dict  # noqa: B018
            _patterns(get_resolver())
            translation.gettext("Standings")  # reads the catalogues of every app for the language
            formats.get_format("DATE_FORMAT")  # and Django's date and number formats for it
    for alias in connections:
        connections[alias].ops.compiler("SQLCompiler")  # the query compiler's module (no connection)
    for alias in settings.CACHES:
        getattr(caches[alias], "_cache", None)  # Redis's client library (no connection is made)
    for dotted in (settings.MESSAGE_STORAGE, settings.SESSION_SERIALIZER):
        import_string(dotted)
    _celery()
    for engine in engines.all():
        engine.engine.template_context_processors  # type: ignore[attr-defined]  # noqa: B018  (imported once)
    # the pages' templates, and the forms' own (Django renders a form's fields with an engine of its own)
    for engine in [*engines.all(), get_default_renderer().engine]:
        for name in _template_names(engine):
            try:
                engine.get_template(name)  # compiled once into the cached loader
            except (TemplateDoesNotExist, TemplateSyntaxError):  # a fragment not meant to stand alone
                continue


def _patterns(resolver: URLResolver) -> None:
    """Each address pattern's regular expression, compiled on its first match otherwise (once
    per language)."""
    for entry in resolver.url_patterns:
        entry.pattern.regex  # noqa: B018
        if isinstance(entry, URLResolver):
            _patterns(entry)


def _celery() -> None:
    """The task queue's client (a page that schedules a recomputation sends through it); its
    connection to the broker is still made on the first send."""
    from config.celery import app

    app.finalize(auto=True)
    app.amqp  # noqa: B018  (a lazy property: imports the message layer)


def _template_names(engine: object) -> list[str]:
    """Every template the engine's directories hold (the project's and each app's)."""
    names: set[str] = set()
    for folder in getattr(engine, "template_dirs", ()):
        root = Path(folder)
        names.update(str(path.relative_to(root)) for path in root.rglob("*.html"))
        names.update(str(path.relative_to(root)) for path in root.rglob("*.txt"))
    return sorted(names)
