"""A GM downloads a backup from the console's settings and imports it from the home page."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from tests.helpers import Table


def test_download_a_backup_then_import_it_from_the_home_page(
    browser, live_server, live_http, tmp_path: Path, artifacts
):
    table = Table.create(live_http, name="Keep me safe")
    table.ok(table.gm, "generic.pool.create", name="Fate", value=4)
    ctx = browser.new_context(
        viewport={"width": 1440, "height": 900}, base_url=live_server.url, accept_downloads=True
    )
    page = ctx.new_page()
    page.goto(f"/c/{table.id}/seat/{table.gm.token}")
    expect(page.locator("#live-pill")).to_have_text("live")
    page.locator(".side-tabs").get_by_role("button", name="Characters & seats").click()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download a backup").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name.endswith(".fray.json.gz") and saved.stat().st_size > 100

    page.goto("/")
    page.get_by_text("Import a campaign").click()
    page.locator("input[name=file]").set_input_files(str(saved))
    page.get_by_role("button", name="Import").click()
    expect(page).to_have_url(re.compile(r"/c/\w+/gm$"))
    assert f"/c/{table.id}/" not in page.url  # a copy beside the original: an id of its own
    expect(page.locator("h1")).to_contain_text("Keep me safe")
    expect(page.locator("#pools")).to_contain_text("Fate")
    page.screenshot(path=str(artifacts / "backup-imported.png"))
    ctx.close()
