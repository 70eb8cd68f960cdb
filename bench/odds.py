"""Exact odds with a cold cache: the rolls the issue named, and the largest a GM may put on a button.

Prints one JSON line (milliseconds, median of the trials, the cache cleared before each). The largest
allowed roll is searched: for each die size, the most dice the odds limit accepts, alone, split in two,
and beside a kept-dice term, and kept dice alone (keeping one, half or all); `worst_ms` is the slowest.

    .venv/bin/python -m bench.odds
"""

from __future__ import annotations

import statistics
import time

from app.rules import dice
from app.rules.errors import InputError
from bench.common import emit

NAMED = ("100d6", "10d10kh3", "20d6kh3", "4d6kh3", "2d20kh1")
TRIALS = 5


def cold_ms(text: str) -> float:
    times = []
    for _ in range(TRIALS):
        dice._distribution_of.cache_clear()
        start = time.perf_counter()
        dice.distribution(text)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def allowed(text: str) -> bool:
    try:
        dice.check_odds_cost(dice.parse(text))
        dice.distribution(text)
    except InputError:
        return False
    return True


def largest_rolls() -> list[str]:
    out = []
    for sides in (2, 4, 6, 10, 12, 20, 30, 50, 100, 300, 1000):
        kept = next((n for n in range(dice.MAX_DICE, 0, -1) if allowed(f"{n}d{sides}kh1")), 0)
        out += [f"{kept}d{sides}kh{k}" for k in sorted({1, max(1, kept // 2), kept}) if kept]
        n = next(n for n in range(dice.MAX_DICE, 0, -1) if allowed(f"{n}d{sides}"))
        out += [f"{n}d{sides}", f"{n // 2}d{sides}+{n - n // 2}d{sides}"] if n > 1 else [f"{n}d{sides}"]
        for kept in ("3d100kh2", "24d6kh12"):
            m = next((m for m in range(n, 0, -1) if allowed(f"{kept}+{m}d{sides}")), 0)
            if m:
                out.append(f"{kept}+{m}d{sides}")
    return [text for text in out if allowed(text)]


def main() -> dict:
    named = {text: round(cold_ms(text), 2) for text in NAMED}
    worst_text, worst = max(((t, cold_ms(t)) for t in largest_rolls()), key=lambda pair: pair[1])
    return emit("exact_odds_cold", named_ms=named, worst_roll=worst_text, worst_ms=round(worst, 1))


if __name__ == "__main__":
    main()
