"""Writes the engine-played games of this folder as Mahjong Soul records (not run by the suite).

Every game is played by this project's engine and written with
``riichi_env.records.mahjongsoul.write_mahjongsoul``; nothing comes from a real Mahjong Soul
record. The seats play a mixed policy (``SimpleEfficiencyAgent``'s compiled choice, with wins,
riichi, kans, kita and some calls taken when legal, from a seeded generator) so that the games show
kans, rinshan draws, kita, several winners of one discard and abortive draws; two games are the
engine's compiled self-play (a triple ron; a ron on a kita); three start with a scripted hand
(``engine.harness.scenario.start_hand``, as in ``tests/engine``): a daisangen with pao, nagashi mangan and
four riichi.

    PYTHONPATH=. python tests/data/mahjongsoul/generate.py
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]

from scenario_helpers import act, discard, pass_claims, pon_three, tsumogiri  # noqa: E402
from scenario_helpers import play_out as scenario_play_out  # noqa: E402

from engine import actions as A  # noqa: E402, N812
from engine.events import event_rows  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.harness.policies import _simple_action  # noqa: E402
from engine.harness.scenario import start_hand  # noqa: E402
from engine.harness.selfplay import POLICY_EFFICIENCY, POLICY_SIMPLE, play_one  # noqa: E402
from engine.rules import MAHJONGSOUL, MAHJONGSOUL_3P, Rules  # noqa: E402
from riichi_env.records.convert import write_text  # noqa: E402
from riichi_env.records.export import game_from_events  # noqa: E402

MAX_EVENTS = 16384


def choose(g: Game, rng: np.random.Generator) -> int:
    """The mixed policy: wins when legal, riichi, kans and kita mostly, kyuushu kyuuhai and calls
    sometimes, else the simple agent's choice."""
    mask = g.legal_mask()
    legal = set(np.flatnonzero(mask).tolist())
    if A.TSUMO in legal or A.RON in legal:
        return A.TSUMO if A.TSUMO in legal else A.RON
    kans = [a for a in legal if A.KAN <= a < A.KAN + 34]
    if kans and rng.random() < 0.8:
        return kans[0]
    kita = getattr(A, "KITA", -1)
    if kita in legal and rng.random() < 0.9:
        return kita
    if A.KYUUSHU in legal and rng.random() < 0.5:
        return A.KYUUSHU
    if A.RIICHI in legal and rng.random() < 0.8:
        return A.RIICHI
    calls = [a for a in legal if a in (A.PON, A.CHI_LOW, A.CHI_MID, A.CHI_HIGH)]
    if calls and rng.random() < 0.3:
        return calls[0]
    return int(_simple_action(g.state.records, 0, g.tables, mask))


def play_out(g: Game, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(100_000):
        if g.state.game_over[0]:
            return
        g.step(choose(g, rng))
    raise RuntimeError("the game did not end")


def write(g: Game, rules: Rules, name: str) -> None:
    assert not g.state.ev_overflow[0]
    save(game_from_events(event_rows(g.state, 0), rules), name)


def save(game, name: str) -> None:
    text = write_text(game, "mahjongsoul")
    path = HERE / name
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode(), mtime=0))
    else:
        path.write_text(text, encoding="utf-8")
    print(f"{name}: {len(game.hands)} hands")


def selfplay(rules: Rules, seed: int, name: str) -> None:
    g = Game(rules, seed=seed, max_events=MAX_EVENTS)
    play_out(g, seed)
    write(g, rules, name)


def scripted(name: str, rules: Rules, seed: int, script) -> None:
    """A game whose first hand is ``script(seed)`` (a ``Game`` after its scripted hand), the rest
    played by the mixed policy."""
    g = script(seed)
    play_out(g, seed)
    write(g, rules, name)


def pao_hand(seed: int) -> Game:
    """E1: seat 1 pons three dragons, the third from seat 2 (liable), and wins daisangen by tsumo
    (``tests/engine/test_scenario_wins.py``)."""
    others = {0: "147m147p147s1235z", 2: "258m258p258s1367z", 3: "369m369p369s1234z"}
    hands = [others.get(s, "55z66z77z234m5p19s9m") for s in range(4)]
    g = start_hand(hands=hands, draws="9p 9m 8m 1m 1p 9s 5p", dora="8p", seed=seed)
    pon_three(g, ("5z", "6z", "7z"), ("9m", "1s", "9s"))
    for s in (2, 3, 0):
        tsumogiri(g, s)
    act(g, 1, A.TSUMO)
    return g


def nagashi_hand(seed: int) -> Game:
    """E1: seat 1 draws and discards only honors to the end: nagashi mangan
    (``tests/engine/test_scenario_draws.py``)."""
    hands = ["345m567m345p678p5s", "2367m2367p36778s", "2468m2468p2468s5m", "2468m2468p2468s5p"]
    honors = [f"{k}z" for k in range(1, 8) for _ in range(4)][:18]
    draws = ["?"] * 70
    for j, tile in enumerate(honors):
        draws[1 + 4 * j] = tile
    g = start_hand(hands=hands, draws=draws, dora="9p", seed=seed)
    scenario_play_out(g)
    return g


def suucha_riichi_hand(seed: int) -> Game:
    """E1: all four seats declare riichi on their first discard: an abortive draw once the fourth
    riichi's discard passes."""
    hands = ["123m456m789m123p5p", "123s456s789s123p6p", "111z222z333z456p7p", "444z555z666z789p8p"]
    g = start_hand(hands=hands, draws="9s 9m 8s 7s", dora="1z", seed=seed)
    for s, tile in enumerate(("9s", "9m", "8s", "7s")):
        act(g, s, A.RIICHI)
        discard(g, s, tile)
        pass_claims(g)
    return g


def compiled_selfplay(rules: Rules, seed: int, policy: int, name: str) -> None:
    """A game of the engine's compiled self-play (``engine.harness.selfplay.play_one``)."""
    state = play_one(seed, rules, MAX_EVENTS, policy)
    assert not state.ev_overflow[0]
    game = game_from_events(event_rows(state, 0), rules)
    save(game, name)


def main() -> None:
    for seed in (65, 73, 266):
        selfplay(MAHJONGSOUL, seed, f"mixed_4p_seed{seed}.json.gz")
    for seed in (148, 244):
        selfplay(MAHJONGSOUL_3P, seed, f"mixed_3p_seed{seed}.json.gz")
    compiled_selfplay(MAHJONGSOUL, 72, POLICY_SIMPLE, "simple_4p_seed72.json.gz")
    compiled_selfplay(MAHJONGSOUL_3P, 59, POLICY_EFFICIENCY, "efficiency_3p_seed59.json.gz")
    scripted("pao_4p.json.gz", MAHJONGSOUL, 11, pao_hand)
    scripted("nagashi_4p.json.gz", MAHJONGSOUL, 13, nagashi_hand)
    scripted("suucha_riichi_4p.json.gz", MAHJONGSOUL, 14, suucha_riichi_hand)


if __name__ == "__main__":
    main()
