"""``arena(log_dir=...)`` and ``riichi-env arena --log DIR [--overwrite]``: records are never
written through a planted symbolic link nor over earlier records unless asked, and a --log that
is a file is a one-line error."""

from __future__ import annotations

import pytest
from test_records_helpers import NAMES, needs_symlinks, plant_victim

from riichi_env.batch.arena import arena
from riichi_env.cli.main import main

SEATS = ["greedy", "random", "random", "random"]


@needs_symlinks
def test_arena_log_never_follows_a_link_or_replaces_a_record(tmp_path):
    victim = plant_victim(tmp_path)
    out = tmp_path / "logs"
    out.mkdir()
    (out / NAMES[0]).symlink_to(victim)
    for overwrite in (False, True):
        with pytest.raises(ValueError, match=NAMES[0]):
            arena(SEATS, games=4, seed=1, log_dir=out, overwrite=overwrite)
    assert victim.read_text() == "precious"
    (out / NAMES[0]).unlink()
    arena(SEATS, games=4, seed=1, log_dir=out)
    first = {p.name: p.read_text() for p in out.iterdir()}
    assert sorted(first) == NAMES
    with pytest.raises(ValueError, match="already there; choose another directory"):
        arena(SEATS, games=4, seed=2, log_dir=out)
    assert {p.name: p.read_text() for p in out.iterdir()} == first
    arena(SEATS, games=4, seed=2, log_dir=out, overwrite=True)
    second = {p.name: p.read_text() for p in out.iterdir()}
    assert sorted(second) == NAMES and second != first


def test_cli_log_messages(tmp_path, capsys):
    args = ["arena", "--seats", ",".join(SEATS), "--games", "4"]
    file = tmp_path / "file"
    file.write_text("x")
    assert main([*args, "--log", str(file)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"riichi-env arena: error: log directory {file}: a file is there; records go into a "
        "directory (it is created if missing)"
    )
    out = tmp_path / "logs"
    assert main([*args, "--log", str(out)]) == 0
    capsys.readouterr()
    assert main([*args, "--log", str(out)]) == 2
    assert "already there; choose another directory or replace them with --overwrite" in (
        capsys.readouterr().err
    )
    assert main([*args, "--log", str(out), "--overwrite"]) == 0


@needs_symlinks
def test_arena_log_link_planted_while_the_games_run(tmp_path):
    """A link planted after the directory check is still refused when the record is written."""
    from riichi_env.batch.play import selfplay

    victim = plant_victim(tmp_path)
    out = tmp_path / "logs"

    def runner(*args, **kwargs):
        result = selfplay(*args, **kwargs)
        if not (out / NAMES[0]).is_symlink():
            (out / NAMES[0]).symlink_to(victim)
        return result

    with pytest.raises(FileExistsError, match="a symbolic link is already there; not replaced"):
        arena(SEATS, games=4, seed=1, log_dir=out, runner=runner)
    assert victim.read_text() == "precious"


def test_cli_help_names_the_options_and_the_checkpoint_risk():
    from riichi_env.cli.main import build_parser

    sub = build_parser()._subparsers._group_actions[0].choices["arena"]
    text = " ".join(sub.format_help().split())
    assert "--overwrite" in text and "symbolic links are refused" in text
    assert "unpickles code: load only checkpoints you trust" in text
