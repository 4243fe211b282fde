"""The organizer's Publish page on the laptop, against a fake instance answering over HTTP."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest
from django.test import Client

from publishing.models import PublishState

from .helpers import laptop_event

pytestmark = pytest.mark.django_db


class FakeInstance(BaseHTTPRequestHandler):
    answers: list[tuple[int, dict[str, Any]]] = []
    received: list[dict[str, Any]] = []

    def do_PUT(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        FakeInstance.received.append({"auth": self.headers["Authorization"], "doc": json.loads(body)})
        status, data = FakeInstance.answers.pop(0)
        payload = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def fake() -> Any:
    FakeInstance.answers, FakeInstance.received = [], []
    server = HTTPServer(("127.0.0.1", 0), FakeInstance)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_organizer_publishes_from_the_page_and_sees_the_outcome(fake: str) -> None:
    e = laptop_event()
    client = Client()
    client.force_login(e["org"])
    assert "/publish/" in client.get(f"/t/{e['t'].slug}/manage/").content.decode()
    FakeInstance.answers = [(503, {"detail": "busy"}), (201, {"status": "created", "sequence": 1})]
    r = client.post(f"/t/{e['t'].slug}/publish/", {"url": fake, "token": "rkp_x_y"}, HTTP_HX_REQUEST="true")
    page = r.content.decode()
    assert r.status_code == 200 and 'class="success"' in page and "(busy)" in page  # the retry is reported
    assert [x["auth"] for x in FakeInstance.received] == ["Bearer rkp_x_y"] * 2
    assert PublishState.objects.get(tournament=e["t"]).last_target == fake
    assert "rkp_x_y" not in json.dumps(list(PublishState.objects.values()), default=str)  # token not kept


def test_a_refusal_is_shown_and_the_form_keeps_the_address(fake: str) -> None:
    e = laptop_event()
    client = Client()
    client.force_login(e["org"])
    FakeInstance.answers = [(401, {"Authorization": ["wrong"], "detail": "wrong token", "rule": "PUBLISH-TOKEN"})]
    r = client.post(f"/t/{e['t'].slug}/publish/", {"url": fake, "token": "bad"})
    page = r.content.decode()
    assert r.status_code == 400 and "401" in page and "PUBLISH-TOKEN" in page and fake in page


def test_only_an_organizer_may_publish(fake: str) -> None:
    e = laptop_event()
    client = Client()
    client.force_login(e["ref"])
    assert client.post(f"/t/{e['t'].slug}/publish/", {"url": fake, "token": "x"}).status_code == 403
    assert FakeInstance.received == []
    assert Client().get(f"/t/{e['t'].slug}/publish/").status_code == 302
