import pytest


@pytest.mark.django_db
def test_health_endpoint_reports_database_and_cache(client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "cache": "ok", "pages": "ok", "broker": "ok",
                               "worker": "eager", "beat": "eager", "standings": "eager"}


@pytest.mark.django_db
def test_api_docs_are_served_locally_without_a_cdn(client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger" in html.lower()
    for cdn in ("cdn.jsdelivr", "unpkg.com", "cdnjs", "googleapis"):
        assert cdn not in html


@pytest.mark.django_db
def test_openapi_schema_is_served(client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")


@pytest.mark.django_db
def test_home_and_demo_tournament_answer_after_load_demo(client) -> None:
    """The full demo (every app's DEMO_STEPS) loads; the public pages answer."""
    from io import StringIO

    from django.core.management import call_command

    call_command("load_demo", stdout=StringIO())
    home = client.get("/")
    assert home.status_code == 200
    assert "/t/demo/" in home.content.decode()
    page = client.get("/t/demo/")
    assert page.status_code == 200
    assert "10:30" in page.content.decode() and "16:30" in page.content.decode()


@pytest.mark.django_db
def test_openapi_schema_lists_the_tournament_endpoints(client) -> None:
    paths = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in ("/api/tournaments/", "/api/tournaments/{slug}/registrations/",
                 "/api/tournaments/{slug}/checkins/", "/api/tournaments/{slug}/links/",
                 "/api/clubs/", "/api/players/"):
        assert path in paths["paths"], path
