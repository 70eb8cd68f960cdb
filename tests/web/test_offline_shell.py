"""The service worker is served from the root, and each table has a manifest for Add to Home Screen."""

from __future__ import annotations


def test_the_service_worker_comes_from_the_root_and_is_never_cached_stale(client):
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    assert "fray-pages" in r.text


def test_a_table_page_links_its_manifest_and_the_manifest_opens_the_table(client, table):
    page = client.get(f"/c/{table.id}/gm", headers=table.gm.auth)
    assert f'<link rel="manifest" href="/c/{table.id}/manifest.webmanifest">' in page.text
    r = client.get(f"/c/{table.id}/manifest.webmanifest")
    assert r.headers["content-type"].startswith("application/manifest+json")
    manifest = r.json()
    assert manifest["start_url"] == f"/c/{table.id}" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).headers["content-type"] == "image/png"


def test_a_manifest_for_a_malformed_id_is_refused(client):
    assert client.get('/c/"x<y/manifest.webmanifest').status_code == 422
