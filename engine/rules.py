"""The rules object: every option of the rule documents, with the Mahjong Soul and Tenhou presets.

``Rules`` is immutable and hashable. Kernels never see it: they receive ``rules.to_array()``, an
``int32`` vector whose positions are the ``RULE_*`` constants below.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from engine.arguments import check_bool, check_choice, check_int, describe, is_int

GAME_LENGTHS = {"tonpuusen": 1, "hanchan": 2}
"""Game length name → number of wind rounds played before any extension."""
HONBA_ON_PASS = ("increment", "reset")
"""What honba does after a draw in which the deal passes."""
PAO_HONBA = ("normal", "liable")
"""Who pays honba on a pao tsumo: everyone the normal way, or the liable player alone."""
MAX_POINTS = 1_000_000
"""Largest ``start_points`` / ``return_points`` (payments stay far inside int32)."""
MAX_UMA = 1000
"""Largest uma per place, in thousands of points."""
PLAYERS = (3, 4)
"""Seats at the table: three-player riichi (sanma, docs/rules.md) or the usual four."""


def _int_tuple(name: str, value, n: int, low: int, high: int) -> tuple[int, ...]:
    """``value`` (a tuple or list of ``n`` ints in ``[low, high]``) as a tuple of Python ints."""
    what = f"rule {name} must be a tuple of {n} ints from {low} to {high}"
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{what}, got {describe(value)}")
    if len(value) != n:
        raise ValueError(f"{what}, got {len(value)} values {tuple(value)!r}")
    for i, v in enumerate(value):
        if not is_int(v):
            raise TypeError(f"{what}, got {describe(v)} at position {i}")
        if not low <= v <= high:
            raise ValueError(f"{what}, got {int(v)} at position {i}")
    return tuple(int(v) for v in value)


(
    RULE_RED_M,
    RULE_RED_P,
    RULE_RED_S,
    RULE_OPEN_TANYAO,
    RULE_KIRIAGE,
    RULE_NAGASHI,
    RULE_DOUBLE_YAKUMAN,
    RULE_KAZOE,
    RULE_OPEN_RIICHI,
    RULE_SANCHAHOU,
    RULE_N_WINDS,
    RULE_EXTENSION,
    RULE_AGARI_YAME,
    RULE_HONBA_RESET_ON_PASS,
    RULE_START_POINTS,
    RULE_RETURN_POINTS,
    RULE_UMA_1,
    RULE_UMA_2,
    RULE_UMA_3,
    RULE_UMA_4,
    RULE_BUSTING,
    RULE_PAO,
    RULE_ABORTIVE_DRAWS,
    RULE_EXTENSION_HANDS,
    RULE_TENPAI_YAME,
    RULE_PAO_HONBA_LIABLE,
    RULE_KAN_DORA_ON_DECLARE,
    RULE_RINSHAN_KAN_DORA,
    RULE_EXTENSION_RENCHAN,
    RULE_KARATEN_MELDS,
    RULE_PLAYERS,
    RULE_KITA,
    RULE_TSUMO_LOSS,
    RULE_TARGET_POINTS,
) = range(34)
N_RULES = 34
"""Length of ``Rules.to_array()``."""


@dataclass(frozen=True)
class Rules:
    """One complete ruleset. Defaults are Mahjong Soul 4-player ranked (docs/rules.md).

    Attributes:
        red_fives: Red fives per suit (m, p, s); the variant rules use (1, 2, 1), no-aka play (0, 0, 0).
        open_tanyao: Kuitan: tanyao counts in an open hand.
        kiriage_mangan: 4 han 30 fu and 3 han 60 fu pay mangan.
        nagashi_mangan: Nagashi mangan at an exhaustive draw.
        double_yakuman: 13-sided kokushi, suuankou tanki, junsei chuuren, daisuushii count double.
        kazoe_yakuman: 13+ han from ordinary yaku is a yakuman (else sanbaiman).
        open_riichi: Open riichi may be declared (+2 han; dealing into it pays yakuman).
        sanchahou: A triple ron aborts the hand instead of paying three winners.
        game_length: ``"hanchan"`` (East + South) or ``"tonpuusen"`` (East only).
        extension_round: Play one more wind while nobody has ``return_points`` (sudden death).
        extension_hands: Hands played at most in the extension wind (at most ``players``).
        extension_renchan: In the extension a hand in which the dealer keeps the deal does not
            end the game, even when someone has ``return_points`` or it is the extension's last
            hand; only busting, agari-yame and tenpai-yame end it (Tenhou: "a dealer renchan takes
            priority"). Off (Mahjong Soul): the extension ends as soon as someone has
            ``return_points``.
        agari_yame: The game ends when the dealer wins the last hand and is first with
            ``return_points``.
        tenpai_yame: The same when the dealer is tenpai at an exhaustive draw of the last hand
            (tenpai-yame; Tenhou since June 2010, ``tenhou-2009`` off).
        honba_on_pass: ``"increment"`` or ``"reset"`` honba after a draw in which the deal passes.
        start_points: Points each player starts with.
        return_points: Oka base (30,000): oka = players × (return − start) to first place; also
            the target unless ``target_points`` is set.
        uma: Placement bonus in thousands of points, one per place (``players`` values).
        busting: The game ends at once when a player drops below 0.
        pao: Liability for daisangen and daisuushii.
        pao_honba: ``"normal"`` (docs/rules.md: every payer pays honba on a pao tsumo) or ``"liable"``
            (Tenhou: the liable player pays all of it).
        kan_dora_on_declare: A pending open/added kan indicator is revealed when a further kan is
            declared (docs/rules.md, before any chankan); off (Tenhou): only once that kan is completed.
        rinshan_kan_dora: A tsumo on the replacement tile of an open or added kan reveals that kan's
            indicator first, so the win counts it (Mahjong Soul); off (Tenhou): the indicator
            would come with the replacement tile's discard, so the win does not count it.
        abortive_draws: Kyuushu kyuuhai, suufon renda, suucha riichi and suukaikan are played.
        karaten_melds: Karaten counts the seat's own melds: a wait on a kind whose four copies
            are among its concealed tiles and its melds is dead, so a hand waiting only on such
            kinds is noten at an exhaustive draw and may not declare riichi. Off (both presets,
            as Tenhou and Mahjong Soul play): only concealed copies make a wait dead
            (docs/rules.md, Draws).
        players: 4, or 3 for three-player riichi (sanma: 108 tiles, seats East, South, West).
        kita: Three players only: a North may be set aside as nuki dora (kita).
        tsumo_loss: Three players only: a tsumo is paid by the two other seats alone (tsumo-zon);
            off ("north bisection"), each of them also pays half the absent seat's four-player
            share, rounded up to 100 (docs/rules.md, "Three-player riichi").
        target_points: Points a player needs to end the game (extension, agari-yame,
            tenpai-yame); ``None`` means ``return_points``. Mahjong Soul 3-player: 40,000 with
            ``return_points`` 35,000.
    """

    red_fives: tuple[int, int, int] = (1, 1, 1)
    open_tanyao: bool = True
    kiriage_mangan: bool = False
    nagashi_mangan: bool = True
    double_yakuman: bool = True
    kazoe_yakuman: bool = True
    open_riichi: bool = False
    sanchahou: bool = False
    game_length: str = "hanchan"
    extension_round: bool = True
    extension_hands: int = 4
    extension_renchan: bool = False
    agari_yame: bool = True
    tenpai_yame: bool = True
    honba_on_pass: str = "increment"
    start_points: int = 25_000
    return_points: int = 30_000
    uma: tuple[int, int, int, int] = (15, 5, -5, -15)
    busting: bool = True
    pao: bool = True
    pao_honba: str = "normal"
    kan_dora_on_declare: bool = True
    rinshan_kan_dora: bool = True
    abortive_draws: bool = True
    karaten_melds: bool = False
    players: int = 4
    kita: bool = False
    tsumo_loss: bool = True
    target_points: int | None = None
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type == "bool":
                object.__setattr__(self, f.name, check_bool(f"rule {f.name}", value))
        object.__setattr__(self, "red_fives", _int_tuple("red_fives", self.red_fives, 3, 0, 4))
        check_choice("rule game_length", self.game_length, tuple(GAME_LENGTHS))
        check_choice("rule honba_on_pass", self.honba_on_pass, HONBA_ON_PASS)
        check_choice("rule pao_honba", self.pao_honba, PAO_HONBA)
        players = check_int("rule players", self.players, min(PLAYERS), max(PLAYERS))
        object.__setattr__(self, "players", players)
        if players == 3 and isinstance(self.uma, (tuple, list)) and len(self.uma) == 4:
            raise ValueError(
                f"rule uma must be a tuple of 3 ints with players=3 (one per place), got {self.uma!r}"
            )
        uma = _int_tuple("uma", self.uma, players, -MAX_UMA, MAX_UMA)
        if sum(uma) != 0:
            count = "four" if players == 4 else "three"
            raise ValueError(f"rule uma must be {count} ints summing to 0, got {self.uma!r}")
        object.__setattr__(self, "uma", uma)
        start = check_int("rule start_points", self.start_points, 1, MAX_POINTS)
        object.__setattr__(self, "start_points", start)
        ret = check_int("rule return_points", self.return_points, 1, MAX_POINTS)
        if ret < start:
            raise ValueError(f"rule return_points must be >= start_points ({start}), got {ret}")
        object.__setattr__(self, "return_points", ret)
        if self.target_points is not None:
            target = check_int("rule target_points", self.target_points, 1, MAX_POINTS)
            object.__setattr__(self, "target_points", target)
        hands = check_int("rule extension_hands", self.extension_hands, 0, players)
        object.__setattr__(self, "extension_hands", hands)
        if players == 3:
            if self.red_fives[0] != 0:
                raise ValueError(
                    "rule red_fives must have no red 5m with 3 players (2m-8m are not in the "
                    f"wall), got {self.red_fives!r}"
                )
        else:
            for option in ("kita", "tsumo_loss"):
                if getattr(self, option) != (option == "tsumo_loss"):
                    raise ValueError(
                        f"rule {option} is a three-player option: it needs players=3, "
                        f"got {option}={getattr(self, option)} with players=4"
                    )
        if not isinstance(self.name, str):
            raise TypeError(f"rule name must be a str, got {describe(self.name)}")

    @property
    def oka(self) -> float:
        """Oka to first place, in thousands of points: players × (return − start)."""
        return self.players * (self.return_points - self.start_points) / 1000

    @property
    def target(self) -> int:
        """Points needed to end the game: ``target_points``, else ``return_points``."""
        return self.return_points if self.target_points is None else self.target_points

    def replace(self, **changes) -> Rules:
        """A copy with some options changed (``name`` becomes ``"custom"`` unless given)."""
        changes.setdefault("name", "custom")
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise TypeError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    def to_array(self) -> np.ndarray:
        """The ``int32[N_RULES]`` vector that kernels read, indexed by ``RULE_*``."""
        a = np.zeros(N_RULES, dtype=np.int32)
        a[RULE_RED_M], a[RULE_RED_P], a[RULE_RED_S] = self.red_fives
        a[RULE_OPEN_TANYAO] = self.open_tanyao
        a[RULE_KIRIAGE] = self.kiriage_mangan
        a[RULE_NAGASHI] = self.nagashi_mangan
        a[RULE_DOUBLE_YAKUMAN] = self.double_yakuman
        a[RULE_KAZOE] = self.kazoe_yakuman
        a[RULE_OPEN_RIICHI] = self.open_riichi
        a[RULE_SANCHAHOU] = self.sanchahou
        a[RULE_N_WINDS] = GAME_LENGTHS[self.game_length]
        a[RULE_EXTENSION] = self.extension_round
        a[RULE_AGARI_YAME] = self.agari_yame
        a[RULE_HONBA_RESET_ON_PASS] = self.honba_on_pass == "reset"
        a[RULE_START_POINTS] = self.start_points
        a[RULE_RETURN_POINTS] = self.return_points
        a[RULE_UMA_1 : RULE_UMA_1 + self.players] = self.uma
        a[RULE_BUSTING] = self.busting
        a[RULE_PAO] = self.pao
        a[RULE_ABORTIVE_DRAWS] = self.abortive_draws
        a[RULE_EXTENSION_HANDS] = self.extension_hands
        a[RULE_TENPAI_YAME] = self.tenpai_yame
        a[RULE_PAO_HONBA_LIABLE] = self.pao_honba == "liable"
        a[RULE_KAN_DORA_ON_DECLARE] = self.kan_dora_on_declare
        a[RULE_RINSHAN_KAN_DORA] = self.rinshan_kan_dora
        a[RULE_EXTENSION_RENCHAN] = self.extension_renchan
        a[RULE_KARATEN_MELDS] = self.karaten_melds
        a[RULE_PLAYERS] = self.players
        a[RULE_KITA] = self.kita
        a[RULE_TSUMO_LOSS] = self.tsumo_loss
        a[RULE_TARGET_POINTS] = self.target
        return a

    @staticmethod
    def preset(name: str) -> Rules:
        """A named preset: ``"mahjongsoul"`` (default), ``"tenhou"``, ``"tenhou-2009"``,
        ``"mahjongsoul-3p"`` or ``"tenhou-3p"``."""
        if not isinstance(name, str):
            raise TypeError(f"rules preset must be a str, got {describe(name)}")
        try:
            return PRESETS[name] if name in PRESETS else PRESETS_3P[name]
        except KeyError:
            raise ValueError(
                f"unknown rules preset {name!r}; choose from {sorted(PRESETS)}"
            ) from None


def check_four_players(rules: Rules, what: str) -> None:
    """Raise ``ValueError`` for three-player rules where only four players are handled yet.

    The engine plays and scores three players; a tool that handles four only refuses
    such rules with this instead of using four seats or an 85-action mask on them.
    """
    if rules.players != 4:
        raise ValueError(
            f"{what}: three-player rules ({rules.name!r}, players=3) are not handled here yet "
            "(docs/sanma-status.md)"
        )


def as_rules(rules: str | Rules, name: str = "rules") -> Rules:
    """A ``Rules`` from a preset name or a ``Rules`` (what every ``rules=`` argument accepts)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.preset(rules)
    raise TypeError(
        f"{name} must be a preset name ({', '.join(repr(p) for p in sorted(PRESETS))}) or an "
        f"engine.rules.Rules, got {describe(rules)}"
    )


MAHJONGSOUL = Rules(name="mahjongsoul")
"""Mahjong Soul 4-player ranked (docs/rules.md), the default."""
TENHOU = Rules(
    double_yakuman=False,
    sanchahou=True,
    uma=(20, 10, -10, -20),
    pao_honba="liable",
    kan_dora_on_declare=False,
    rinshan_kan_dora=False,
    extension_renchan=True,
    name="tenhou",
)
"""Tenhou ranked, for replaying Tenhou records (docs/rules.md): single yakuman only, triple ron aborts.

Its manual: automatic agari-yame and tenpai-yame for the all-last dealer in first place
(tenpai-yame since June 2010: "the all-last dealer ends the game by keeping first place above the
return points", the dealers of the extension's hands included), and in the extension a dealer
renchan takes priority over someone having 30,000. Its records also show pao honba paid by the
liable player alone, a pending kan indicator revealed only once a further kan is completed, and a
rinshan tsumo right after an open or added kan that does not count that kan's indicator.
"""
TENHOU_2009 = TENHOU.replace(tenpai_yame=False, name="tenhou-2009")
"""Tenhou before June 2010, for its older records (``bug1.xml``): no tenpai-yame, so the all-last
dealer tenpai at an exhaustive draw plays on even in first place (docs/rules.md)."""
MAHJONGSOUL_3P = MAHJONGSOUL.replace(
    players=3,
    kita=True,
    red_fives=(0, 1, 1),
    start_points=35_000,
    return_points=35_000,
    target_points=40_000,
    uma=(15, 0, -15),
    extension_hands=3,
    name="mahjongsoul-3p",
)
"""Mahjong Soul 3-player ranked (docs/rules.md, "Three-player riichi"): red 5p and 5s, kita,
tsumo loss, 35,000 start, 40,000 to end the game, final score (points − 35,000) / 1000 + uma
(15, 0, −15) with no oka."""
TENHOU_3P = TENHOU.replace(
    players=3,
    kita=True,
    red_fives=(0, 1, 1),
    start_points=35_000,
    return_points=40_000,
    uma=(20, 0, -20),
    extension_hands=3,
    name="tenhou-3p",
)
"""Tenhou 3-player ranked (docs/rules.md, "Three-player riichi"): red 5p and 5s, kita, tsumo
loss, 35,000 start, 40,000 return and target, uma (20, 0, −20), oka 3 × 5 = 15 to first."""
PRESETS = {"mahjongsoul": MAHJONGSOUL, "tenhou": TENHOU, "tenhou-2009": TENHOU_2009}
"""The four-player presets: every tool plays them (the CLIs' choices, the messages that list
presets)."""
PRESETS_3P = {"mahjongsoul-3p": MAHJONGSOUL_3P, "tenhou-3p": TENHOU_3P}
"""The three-player presets: ``Rules.preset`` knows them, and the tools that play three players
(the envs, self-play, the arena, records, the dataset, hand scoring) list them beside ``PRESETS``."""
