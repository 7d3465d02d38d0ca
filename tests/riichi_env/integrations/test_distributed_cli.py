"""``--backend ray`` of ``riichi-env selfplay`` and ``arena``: the same ``--json`` as one process."""

import json

import pytest

pytest.importorskip("ray")
pytestmark = pytest.mark.xdist_group("ray")  # the same worker as test_distributed.py

from riichi_env.cli.main import main  # noqa: E402


def test_cli_backend_ray_prints_the_same_json(ray_local, capsys):
    argv = ["selfplay", "--games", "12", "--seed", "4", "--json", "--workers", "2"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*argv, "--backend", "ray"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["results"] == local["results"] and set(out) == set(local)
    argv = ["arena", "--seats", "efficiency,random,random,random", "--games", "8", "--json"]
    assert main(argv + ["--workers", "2"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(argv + ["--workers", "2", "--backend", "ray"]) == 0
    assert json.loads(capsys.readouterr().out) == local
