"""Schemathesis against the typed OpenAPI document (issue 13): no 5xx, and every reply as declared.

Every /api operation gets generated requests, each sent twice (with the GM's token and with a player's)
to a real server holding a campaign set up first, so the seated routes reach the rules instead of
stopping at 401. Checks: no server error, the status is one the operation declares, and the body
matches the declared schema. Examples are bounded and replayed the same each run (derandomized), so it
finishes in well under a minute and a failure reproduces.
"""

from __future__ import annotations

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from app.settings import Settings
from tests.helpers import Table

CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]
EXAMPLES = 12  # valid requests an operation
COMMAND_EXAMPLES = 200  # the command body is a union of every command: more of them get a turn
BAD_EXAMPLES = 8  # and requests that break its schema: each must be a declared 4xx, never a 5xx


@pytest.fixture
def settings(database_url: str) -> Settings:
    # Generous limits: a refusal for going too fast would hide what the rules do with the input.
    return Settings(database_url=database_url, rate_limit_scale=1000)


@pytest.fixture
def seated(live_http) -> tuple[Table, dict[str, str]]:
    """A campaign with a player, a character each side and a running encounter: things to act on."""
    table = Table.create(live_http, name="Fuzzed", dice="server")
    ann = table.join("Ann")
    rook = table.character("Rook", owner=ann)
    goblin = table.character("Goblin", kind="npc")
    table.ok(table.gm, "campaign.encounter.prepare", name="Fight", participants=[rook, goblin])
    table.ok(table.gm, "campaign.encounter.start", encounter="Fight")
    table.ok(table.gm, "generic.pool.create", name="HP", value=5, max=5, owner=rook)
    return table, {"gm": table.gm.token, "player": ann.token}


def test_every_api_operation_keeps_to_its_schema(live_server, live_http, seated):
    table, tokens = seated
    document = live_http.get("/openapi.json").json()
    schema = schemathesis.openapi.from_dict(document).include(path_regex="^/api/")
    failures: dict[str, str] = {}
    seen: dict[str, set[int]] = {}

    def send(label: str, case) -> None:
        for token in tokens.values():
            with requests.Session() as session:  # no cookie carried from one request to the next
                response = case.call_and_validate(
                    base_url=live_server.url,
                    session=session,
                    headers={"Authorization": f"Bearer {token}"},
                    checks=CHECKS,
                )
            seen.setdefault(label, set()).add(response.status_code)

    for result in schema.get_all_operations():
        operation = result.ok()
        fixed = {"campaign_id": table.id} if "{campaign_id}" in operation.path else None
        try:
            many = COMMAND_EXAMPLES if operation.path.endswith("/commands") else EXAMPLES
            _fuzz(operation, fixed, send, GenerationMode.POSITIVE, many)
            _fuzz(operation, fixed, send, GenerationMode.NEGATIVE, BAD_EXAMPLES)
        except Exception as error:  # every operation is tried; all that failed are reported together
            failures[operation.label] = str(error)
    assert not failures, "\n\n".join(f"{label}:\n{text}" for label, text in failures.items())
    # The requests reached the rules, not only the door: seated reads answer, and commands run.
    assert 200 in seen["GET /api/campaigns/{campaign_id}"]
    assert 200 in seen["GET /api/campaigns/{campaign_id}/events"]
    assert 200 in seen["POST /api/campaigns/{campaign_id}/commands"]


def _fuzz(
    operation, path_parameters: dict[str, str] | None, send, mode: GenerationMode, examples: int
) -> None:
    """Bounded, replayable examples of one operation (valid or not, by `mode`), each handed to `send`."""

    @hypothesis_settings(
        max_examples=examples, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
    )
    @given(case=operation.as_strategy(mode, path_parameters=path_parameters))
    def check(case) -> None:
        send(operation.label, case)

    try:
        check()
    except Unsatisfiable:
        # Nothing of it can be broken (its only input is the campaign id, fixed above): no bad request.
        if mode is not GenerationMode.NEGATIVE:
            raise
