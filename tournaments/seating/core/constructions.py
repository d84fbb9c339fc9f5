"""Exact schedules where mathematics gives them: cyclic, affine planes, whist tournaments.

Every construction here works on points 0..n-1; the mixer maps entrants onto points.
The tests check each one pair by pair, so a wrong table here cannot go unnoticed.

- **Cyclic** (``cyclic_rounds``): n = k*m players in k groups of m; point (g, x) is
  ``g*m + x``. In round r, table t takes (g, t + g*r) from every group g. Two players of
  groups g != h meet in the rounds r with (g - h) * r = x - y. Over the integers mod m
  that has at most one solution among r = 0..R-1 while (k-1)(R-1) < m; over a finite
  field of size m (m a prime power, arithmetic of GF(m)) exactly one for every r, so
  all m rounds are repeat-free. Players of one group never meet, so when k divides m a
  last round splits each group into tables of k: 32 players at 4 give 8 + 1 = 9 rounds
  with GF(8).
- **Affine planes** (``affine_plane``): the cyclic construction with k = m = q, a prime
  power: q*q players at tables of q for q + 1 rounds, every pair meeting exactly once
  (9 at 3 for 4 rounds, 16 at 4 for 5, 25 at 5 for 6).
- **Whist tournaments** (``whist_rounds``): partners (seats 0 and 2, 1 and 3) exactly
  once, opponents exactly twice. n = 4m players play n - 1 rounds: the first round of a
  tournament on a group of n - 1 elements plus a fixed point (stored), the other rounds
  add a group element to every finite point. n = 4m + 1 players play n rounds, one
  sitting out each: a group of n elements, the element 0 sitting out the first round.
  For n a prime (n = 4m + 1) the first round is built: with x a primitive root, tables
  (x^i, x^(i+m), x^(i+2m), x^(i+3m)) for i < m seat every difference once as partners
  and twice as opponents when (1 + x^m) / (1 - x^m) is an odd power of x^m away, which
  some primitive root always gave up to 61. The same over GF(q) for a prime power
  q = 4m + 1 (25, 49, 81, 121, 125), with a primitive element of the field and its
  additive group (Z_p)^e as the group. Other sizes are stored (``designs.json``).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from tournaments.seating.core import designs

Tables = list[tuple[int, ...]]

# --------------------------------------------------------------------------- finite fields


def prime_power(q: int) -> tuple[int, int] | None:
    """(p, e) with p**e == q and p prime, or None."""
    if q < 2:
        return None
    for p in range(2, q + 1):
        if q % p == 0:
            e, rest = 0, q
            while rest % p == 0:
                rest //= p
                e += 1
            return (p, e) if rest == 1 else None
    return None  # pragma: no cover


def _poly_mod(a: list[int], mod: list[int], p: int) -> list[int]:
    a = a[:]
    while len(a) >= len(mod):
        factor = a[-1] % p
        shift = len(a) - len(mod)
        if factor:
            for i, c in enumerate(mod):
                a[shift + i] = (a[shift + i] - factor * c) % p
        a.pop()
    return a


def _irreducible(p: int, e: int) -> list[int]:
    """The first monic polynomial of degree e over GF(p) with no factor of lower degree."""
    for tail in product(range(p), repeat=e):
        poly = [*tail, 1]  # lowest coefficient first
        if poly[0] == 0:
            continue
        if all(
            any(_poly_mod(poly, [*low, 1], p))
            for degree in range(1, e // 2 + 1)
            for low in product(range(p), repeat=degree)
        ):
            return poly
    raise AssertionError(f"no irreducible polynomial of degree {e} over GF({p})")


@lru_cache(maxsize=32)
def field_tables(q: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Addition and multiplication tables of GF(q); elements are 0..q-1 (digits base p)."""
    found = prime_power(q)
    if found is None:
        raise ValueError(f"{q} is not a prime power")
    p, e = found
    modulus = _irreducible(p, e)

    def digits(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(e)]

    def number(poly: list[int]) -> int:
        return sum(c * p**i for i, c in enumerate(poly))

    add = tuple(
        tuple(
            number([(u + v) % p for u, v in zip(digits(a), digits(b), strict=True)])
            for b in range(q)
        )
        for a in range(q)
    )
    mul_rows = []
    for a in range(q):
        row = []
        for b in range(q):
            da, db = digits(a), digits(b)
            prod = [0] * (2 * e - 1)
            for i, u in enumerate(da):
                for j, v in enumerate(db):
                    prod[i + j] = (prod[i + j] + u * v) % p
            reduced = _poly_mod(prod, modulus, p) if e > 1 else [prod[0] % p]
            row.append(number(reduced + [0] * (e - len(reduced))))
        mul_rows.append(tuple(row))
    return add, tuple(mul_rows)


# --------------------------------------------------------------------------- cyclic


def cyclic_capacity(k: int, m: int) -> int:
    """How many repeat-free rounds the cyclic construction gives for k groups of m."""
    if k < 2 or k > m:
        return 0
    group_round = 1 if m % k == 0 else 0
    if prime_power(m) is not None:
        return m + group_round
    plain = (m - 1) // (k - 1) + 1  # (k-1)(R-1) < m
    return min(plain, m) + group_round


def cyclic_round(k: int, m: int, r: int) -> Tables:
    """Round r (0-based) of the cyclic construction for k groups of m (see module doc).

    Rounds 0..m-1 (0..R-1 without a field) are the cyclic rounds; the round after the
    last cyclic round is the group round (each group split into tables of k).
    """
    field = prime_power(m) is not None and k <= m
    cyclic = m if field else min((m - 1) // max(k - 1, 1) + 1, m)
    if r >= cyclic:
        if m % k or r > cyclic:
            raise ValueError(f"the cyclic construction for {k}x{m} has no round {r + 1}")
        return [
            tuple(g * m + x for x in range(start, start + k))
            for g in range(k)
            for start in range(0, m, k)
        ]
    if field:
        add, mul = field_tables(m)
        return [tuple(g * m + add[t][mul[g][r]] for g in range(k)) for t in range(m)]
    return [tuple(g * m + (t + g * r) % m for g in range(k)) for t in range(m)]


def cyclic_rounds(k: int, m: int, rounds: int | None = None) -> list[Tables]:
    count = cyclic_capacity(k, m) if rounds is None else rounds
    return [cyclic_round(k, m, r) for r in range(count)]


def affine_plane(q: int) -> list[Tables]:
    """The q + 1 parallel classes of the affine plane of order q: q*q points, lines of q."""
    if prime_power(q) is None:
        raise ValueError(f"an affine plane of order {q} needs a prime power")
    return cyclic_rounds(q, q, q + 1)


# --------------------------------------------------------------------------- whist

# First rounds of Z-cyclic whist tournaments on Z_(n-1) plus a fixed point (-1): each
# table (a, b, c, d) seats a and c as partners against b and d.
WHIST_FIRST_ROUNDS: dict[int, tuple[tuple[int, int, int, int], ...]] = {
    8: ((-1, 0, 5, 1), (2, 3, 4, 6)),
    12: ((-1, 8, 9, 6), (7, 2, 0, 3), (4, 10, 1, 5)),
    16: ((-1, 4, 5, 8), (7, 3, 12, 9), (13, 14, 1, 6), (0, 11, 2, 10)),
    20: ((-1, 15, 0, 14), (11, 3, 2, 8), (5, 9, 17, 12), (1, 10, 16, 18), (7, 4, 13, 6)),
    24: (
        (-1, 19, 4, 5),
        (9, 17, 12, 10),
        (3, 20, 1, 15),
        (0, 11, 8, 21),
        (22, 2, 16, 6),
        (18, 13, 7, 14),
    ),
}


# Whist tournaments are known for sizes up to here; sizes are looked up, never searched.
WHIST_LARGEST = 128

WhistTables = tuple[tuple[int, ...], ...]


def _is_prime(p: int) -> bool:
    return p > 1 and all(p % d for d in range(2, int(p**0.5) + 1))


def _differences_fit(p: int, first: WhistTables) -> bool:
    partners = [0] * p
    opponents = [0] * p
    for a, b, c, d in first:
        for u, v in ((a, c), (b, d)):
            partners[(u - v) % p] += 1
            partners[(v - u) % p] += 1
        for u in (a, c):
            for v in (b, d):
                opponents[(u - v) % p] += 1
                opponents[(v - u) % p] += 1
    return all(partners[x] == 1 and opponents[x] == 2 for x in range(1, p))


@lru_cache(maxsize=64)
def prime_whist_first_round(p: int) -> WhistTables | None:
    """The first round of a whist tournament on the integers mod a prime p = 4m + 1
    (see the module doc), or None when p is not such a prime or no root fits."""
    if p < 5 or p % 4 != 1 or not _is_prime(p):
        return None
    m = (p - 1) // 4
    factors = [q for q in range(2, p) if (p - 1) % q == 0 and _is_prime(q)]
    for x in range(2, p):
        if any(pow(x, (p - 1) // q, p) == 1 for q in factors):
            continue  # not a primitive root
        first = tuple(tuple(pow(x, i + k * m, p) for k in range(4)) for i in range(m))
        if _differences_fit(p, first):
            return first
    return None  # pragma: no cover - every prime up to WHIST_LARGEST has a root that fits


@lru_cache(maxsize=16)
def field_whist_first_round(q: int) -> WhistTables | None:
    """The first round of a whist tournament on the additive group of GF(q), q = 4m + 1
    a prime power: the construction for primes with field arithmetic (``field_tables``),
    elements written as digits base p. None when q is no such prime power or no
    primitive element fits."""
    found = prime_power(q)
    if found is None or q < 5 or q % 4 != 1:
        return None
    add, mul = field_tables(q)
    neg = tuple(next(b for b in range(q) if add[a][b] == 0) for a in range(q))
    m = (q - 1) // 4
    for x in range(2, q):
        powers = [1]
        while len(powers) < q - 1:
            powers.append(mul[powers[-1]][x])
        if mul[powers[-1]][x] != 1 or len(set(powers)) != q - 1:
            continue  # not a primitive element
        first = tuple(tuple(powers[i + k * m] for k in range(4)) for i in range(m))
        if _field_differences_fit(q, add, neg, first):
            return first
    return None  # pragma: no cover - every prime power up to WHIST_LARGEST has one that fits


def _field_differences_fit(
    q: int,
    add: tuple[tuple[int, ...], ...],
    neg: tuple[int, ...],
    first: WhistTables,
) -> bool:
    partners = [0] * q
    opponents = [0] * q
    for a, b, c, d in first:
        for u, v in ((a, c), (b, d)):
            partners[add[u][neg[v]]] += 1
            partners[add[v][neg[u]]] += 1
        for u in (a, c):
            for v in (b, d):
                opponents[add[u][neg[v]]] += 1
                opponents[add[v][neg[u]]] += 1
    return all(partners[x] == 1 and opponents[x] == 2 for x in range(1, q))


def whist_design(n: int) -> tuple[tuple[int, ...], WhistTables] | None:
    """(group moduli, first round) of the whist tournament for n players, or None.

    For n = 4m the group has n - 1 elements and -1 in a table is the fixed point; for
    n = 4m + 1 it has n elements and 0 sits out the first round.
    """
    if n in WHIST_FIRST_ROUNDS:
        return (n - 1,), WHIST_FIRST_ROUNDS[n]
    stored = designs.stored_whist(n)
    if stored is not None:
        return stored
    built = prime_whist_first_round(n)
    if built is not None:
        return (n,), built
    power = prime_power(n)
    field_built = field_whist_first_round(n) if power is not None else None
    if power is not None and field_built is not None:
        p, e = power
        return (p,) * e, field_built
    return None


@lru_cache(maxsize=1)
def whist_sizes() -> tuple[int, ...]:
    return tuple(n for n in range(4, WHIST_LARGEST + 1) if whist_design(n) is not None)


def whist_round_count(n: int) -> int:
    """Rounds of a whist tournament: n - 1 for n = 4m, n for n = 4m + 1."""
    return n - 1 if n % 4 == 0 else n


def _group_element(moduli: tuple[int, ...], index: int) -> tuple[int, ...]:
    digits = []
    for modulus in moduli:
        digits.append(index % modulus)
        index //= modulus
    return tuple(digits)


def _group_add(moduli: tuple[int, ...], point: int, shift: tuple[int, ...]) -> int:
    total, scale = 0, 1
    for modulus, step in zip(moduli, shift, strict=True):
        total += ((point // scale) % modulus + step) % modulus * scale
        scale *= modulus
    return total


def whist_round(n: int, r: int) -> Tables:
    """Round r (0-based) of the whist tournament for n players.

    n = 4m: points 0..n-2 are the group's elements and point n-1 the fixed point.
    n = 4m + 1: points 0..n-1 are the group's elements; point r sits out round r
    (``whist_sitting_out``). Seats 0 and 2 are partners, as are 1 and 3.
    """
    found = whist_design(n)
    if found is None:
        raise ValueError(f"no whist tournament stored for {n} players")
    count = whist_round_count(n)
    if not 0 <= r < count:
        raise ValueError(f"a whist tournament for {n} players has {count} rounds")
    moduli, first = found
    shift = _group_element(moduli, r)
    return [
        tuple(n - 1 if point < 0 else _group_add(moduli, point, shift) for point in table)
        for table in first
    ]


def whist_sitting_out(n: int, r: int) -> int | None:
    """Who sits out round r of the whist tournament for n players (n = 4m + 1 only)."""
    return r if n % 4 == 1 else None


def whist_rounds(n: int) -> list[Tables]:
    return [whist_round(n, r) for r in range(whist_round_count(n))]
