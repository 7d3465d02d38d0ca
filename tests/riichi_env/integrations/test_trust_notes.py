"""``ppo:PATH`` loads a Stable-Baselines3 zip, which unpickles code: the loader's docstring, the
README and docs/environment.md say "load only checkpoints you trust" (the CLI help too:
``test_arena_log.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
NOTE = "load only checkpoints you trust"


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_checkpoint_loader_warns():
    tree = ast.parse(
        (ROOT / "riichi_env" / "integrations" / "sb3.py").read_text()
    )  # no torch needed
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "MaskablePPOAgent"]
    doc = _flat(ast.get_docstring(cls))
    assert "unpickles" in doc and NOTE in doc


def test_readme_and_docs_warn():
    for name in ("README.md", "docs/environment.md"):
        text = _flat((ROOT / name).read_text())
        assert "unpickles" in text and NOTE in text, name
