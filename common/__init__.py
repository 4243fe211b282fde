"""The floor every app stands on: the shared helpers, below every app and above the engine only.

What a refusal is and how each front end says it (``errors``, ``api``, ``refusals``, ``htmx``,
``commands``), the request's edges (``edge``, ``security``, ``authentication``, ``passwords``),
exact JSON (``jsonexact``, ``restjson``), the schema's shared parts (``schema``), the engine's
codes in words (``engine_messages``), the cache that survives Redis going away (``cache``) and the
live public pages' machinery (``live``: each app registers its own models in its
``AppConfig.ready``). It imports no app and not ``config`` (tests/foundation/test_layers.py):
``config`` is the wiring above everything (settings, URLs, WSGI, the Celery app).
"""
