"""Garbage collected between pushes, not inside them.

The interpreter collects its youngest generation when allocations pass a threshold, wherever that falls.
Inside a command and its push, with a view per phone alive, a pass took 1.1-2.1 ms; between pushes,
with little young and alive, 50-100 µs. At 64 phones 2-4 commands in 300 had a pass inside them: at
300 samples, the size of a p99 (docs/performance.md). So once a push is done, and the loop has run
what waited on it, the generation the interpreter would collect next is collected there when the
youngest is past a share of its threshold: the automatic pass then rarely comes due mid-command, and
stays the backstop.

Served processes only (`fray serve` turns it on, beside its other collector settings in app/cli.py).
"""

from __future__ import annotations

import asyncio
import gc

# Past this share of its threshold the youngest generation is collected after a push. A command and its
# push at 64 phones leave about 3,000 young objects of the 10,000 (app/cli.py): at a half, the next
# command starts with room for itself.
YOUNG_SHARE = 0.5

_on = False
_due = False


def turn_on() -> None:
    global _on
    _on = True


def turn_off() -> None:
    global _on
    _on = False


def generation_due(
    counts: tuple[int, int, int], thresholds: tuple[int, int, int], share: float
) -> int | None:
    """The generation to collect now, or None: when the youngest is past `share` of its threshold, the
    oldest generation whose count is past its own threshold (the interpreter's choice when the youngest
    fills), else the youngest."""
    if thresholds[0] <= 0 or counts[0] < thresholds[0] * share:
        return None
    for generation in (2, 1):
        if counts[generation] > thresholds[generation]:
            return generation
    return 0


def collect_now() -> int | None:
    """Collect the generation due, if any; the generation collected."""
    global _due
    _due = False
    generation = generation_due(gc.get_count(), gc.get_threshold(), YOUNG_SHARE)
    if generation is not None and gc.isenabled():
        gc.collect(generation)
    return generation


def after_push() -> None:
    """A push is done: collect once the loop has run what is ready (the command's reply goes first)."""
    global _due
    if not _on or _due:
        return
    _due = True
    asyncio.get_running_loop().call_soon(collect_now)
