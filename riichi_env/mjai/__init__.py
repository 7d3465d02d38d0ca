"""mjai: the protocol, an external bot as a seat, and ``python -m riichi_env.mjai.bot``."""
