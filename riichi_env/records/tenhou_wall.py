"""Tenhou's walls from an mjlog record's ``SHUFFLE`` seed (Tenhou's published shuffle).

Tenhou writes the seed of its random generator into each record (``<SHUFFLE seed="mt19937ar-
sha512-n288-base64,…">`` since 2010, ``mt19937ar-sha512-n288,`` with hexadecimal words before).
Each hand takes 288 words of MT19937 (initialized by ``init_by_array`` from the seed's words),
hashes them with SHA-512 in nine blocks of 32 words into 144 words, and shuffles the 136 tiles
with them (Fisher-Yates from the front: position ``i`` swaps with ``i + w[i] % (136 - i)``). The
result is the wall in Tenhou's layout (``riichi_env.records.wall``). Checked against every wall of
``tests/data/logs/tenhou-mjlog/walls.jsonl``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import random
import struct

N = 624
"""Words of MT19937's state."""


def seed_words(seed: str) -> tuple[list[int], str]:
    """The 32-bit words of a ``SHUFFLE`` seed and the wall layout of its era; ``ValueError`` if it
    is not one of Tenhou's two forms."""
    kind, _, data = seed.partition(",")
    try:
        if kind == "mt19937ar-sha512-n288-base64":
            raw = base64.b64decode(data, validate=True)
            if not raw or len(raw) % 4:
                raise ValueError("its length is not whole words")
            return list(struct.unpack(f"<{len(raw) // 4}I", raw)), "tenhou"
        if kind == "mt19937ar-sha512-n288":
            words = [int(x, 16) for x in data.split(",")]
            if not words or max(words) >= 1 << 32 or min(words) < 0:
                raise ValueError("a word outside 32 bits")
            return words, "tenhou_old"
    except (ValueError, binascii.Error) as exc:
        raise ValueError(f"bad SHUFFLE seed {seed[:60]!r}: {exc}") from None
    raise ValueError(
        f"unknown SHUFFLE seed kind {kind[:40]!r}: expected mt19937ar-sha512-n288[-base64]"
    )


def _mt_state(key: list[int]) -> tuple[int, ...]:
    """MT19937's state after ``init_by_array(key)`` (the reference algorithm)."""
    mt = [0] * N
    mt[0] = 19650218
    for i in range(1, N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
    i, j = 1, 0
    for _ in range(max(N, len(key))):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= len(key):
            j = 0
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000
    return tuple(mt)


def tenhou_walls(seed: str, hands: int) -> tuple[list[list[int]], str]:
    """The walls of the first ``hands`` hands of a game with this ``SHUFFLE`` seed (Tenhou layout),
    and the layout's name (``"tenhou"`` or ``"tenhou_old"``)."""
    words, layout = seed_words(seed)
    gen = random.Random()
    gen.setstate((3, (*_mt_state(words), N), None))  # Python's generator is MT19937 too
    walls = []
    for _ in range(hands):
        rnd = [gen.getrandbits(32) for _ in range(288)]
        src: list[int] = []
        for b in range(9):
            block = struct.pack("<32I", *rnd[32 * b : 32 * b + 32])
            src.extend(struct.unpack("<16I", hashlib.sha512(block).digest()))
        wall = list(range(136))
        for i in range(135):
            j = i + src[i] % (136 - i)
            wall[i], wall[j] = wall[j], wall[i]
        walls.append(wall)
    return walls, layout
