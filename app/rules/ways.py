"""Counting the ways a roll can total each value, exactly, in integers.

A table of ways is a polynomial: coefficient i counts the rolls whose total is `start + i`. Tables
multiply as big integers, each coefficient in its own run of `width` bytes, because Python multiplies
and shifts big integers in C, far faster than a loop over coefficients. Every count here is at most
the number of rolls, which sets the width.
"""

from __future__ import annotations

from math import comb

Table = tuple[int, list[int]]  # (lowest total, ways of each total from it upwards)


def width_for(bound: int) -> int:
    """Bytes that hold every count up to `bound`."""
    return bound.bit_length() // 8 + 1


def pack(values: list[int], width: int) -> int:
    return int.from_bytes(b"".join(v.to_bytes(width, "little") for v in values), "little")


def unpack(number: int, width: int, size: int) -> list[int]:
    data = number.to_bytes(width * size, "little")
    return [int.from_bytes(data[i * width : (i + 1) * width], "little") for i in range(size)]


def multiply(a: Table, b: Table) -> Table:
    """Ways of the sum of two independent rolls."""
    (a_start, a_ways), (b_start, b_ways) = a, b
    width = width_for(sum(a_ways) * sum(b_ways))
    size = len(a_ways) + len(b_ways) - 1
    return a_start + b_start, unpack(pack(a_ways, width) * pack(b_ways, width), width, size)


def negate(table: Table) -> Table:
    """Ways of minus the roll: the table read backwards."""
    start, ways = table
    return -(start + len(ways) - 1), ways[::-1]


def sum_of(count: int, lo: int, hi: int) -> Table:
    """Ways for `count` dice with faces lo..hi: the coefficients of (1 + x + ... + x^(m-1))^count.

    That polynomial is (1 - x^m)^count / (1 - x)^count, so coefficient s is
    sum over k of (-1)^k C(count, k) C(s - k m + count - 1, count - 1): a handful of shifted copies
    of one packed series, added as big integers. The table is symmetric, so only its lower half is
    worked out. Packing is linear, so the partial sums may carry between coefficients; the final
    ones are true counts, each within the width, and the mask keeps only the half wanted."""
    m = hi - lo + 1
    top = count * (m - 1)
    half = top // 2
    series = [1] * (half + 1)  # C(j + count - 1, count - 1)
    for j in range(1, half + 1):
        series[j] = series[j - 1] * (j + count - 1) // j
    width = width_for(max(series[-1], m**count))
    bits = 8 * width
    packed = pack(series, width)
    total = 0
    for k in range(half // m + 1):
        kept = packed & ((1 << (bits * (half + 1 - k * m))) - 1)
        term = comb(count, k) * (kept << (bits * k * m))
        total = total - term if k % 2 else total + term
    lower = unpack(total, width, half + 1)
    return lo * count, lower + lower[: top - half][::-1]


def keep_of(count: int, lo: int, hi: int, keep: int, highest: bool) -> Table:
    """Ways for the sum of the `keep` highest (or lowest) of `count` dice with faces lo..hi.

    Every roll has one threshold t, the face of the keep-th highest die, and a number a < keep of
    dice above it. The kept sum is then those a dice (each above t) plus (keep - a) times t; at least
    keep - a of the others show t and the rest show less. So the table is a sum over t and a of the
    table of a dice above t, scaled by how many ways the others fall: keep x sides big-integer steps.
    Keeping the lowest is keeping the highest of the dice read upside down."""
    if keep == count:
        return sum_of(count, lo, hi)
    m = hi - lo + 1
    width = width_for(m**count)
    bits = 8 * width
    total = 0
    for t in range(m):  # the threshold, as a face counted from lo
        above = m - 1 - t
        power = 1  # the table of a dice above t, one coefficient per total from a (t + 1)
        for a in range(keep):
            if a:
                if not above:
                    break
                # One die above t: `above` coefficients of 1, packed (a geometric series).
                power *= ((1 << (bits * above)) - 1) // ((1 << bits) - 1)
            others = _others_at_or_below(count - a, keep - a, t)
            if others:
                total += (comb(count, a) * others * power) << (bits * (keep * t + a))
    size = keep * (m - 1) + 1
    ways = unpack(total, width, size)
    return lo * keep, ways if highest else ways[::-1]


def _others_at_or_below(n: int, at_least: int, below: int) -> int:
    """Ways for n dice to show the threshold face at least `at_least` times and otherwise one of the
    `below` faces under it: sum over j of C(n, j) below^j, for j up to n - at_least dice below."""
    most_below = n - at_least
    if most_below < 0:
        return 0

    def ways(js: range) -> int:
        found: int = sum(comb(n, j) * below**j for j in js)
        return found

    if most_below < n - most_below:
        return ways(range(most_below + 1))
    every: int = (below + 1) ** n  # each of the n dice at or below the threshold
    return every - ways(range(most_below + 1, n + 1))
