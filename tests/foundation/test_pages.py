import pytest


@pytest.mark.django_db
def test_health_endpoint_reports_database_and_cache(client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "cache": "ok"}


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
