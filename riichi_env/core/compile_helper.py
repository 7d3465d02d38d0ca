"""The second process of a cold compile on two cores: ``python -m riichi_env.core.compile_helper PART
[PART ...]`` compiles the game's parts (``engine.compile_parts.PARTS`` and ``PIECES``) and the
default encoder's kernel the env observes with (``"observe"``) into the shared on-disk cache,
printing each kernel's name once it is cached, then each part named on a line of its stdin
(``riichi_env.core.compiling._Helper`` starts and reads it)."""

from __future__ import annotations

import sys

from engine.compile_parts import PARTS, PIECES, main
from riichi_env.core.compiling import _observe_entries

HELPER_PARTS = {**PARTS, **PIECES, "observe": _observe_entries}
"""What the helper can compile, by name."""

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], HELPER_PARTS))
