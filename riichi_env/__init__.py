"""riichi_env: a fast, rule-exact Riichi Mahjong environment (PettingZoo AEC API)."""

__version__ = "0.1.0"
