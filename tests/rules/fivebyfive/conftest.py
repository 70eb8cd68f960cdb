from tests.rules.fivebyfive.harness import t  # noqa: F401  (the shared fixture)
