"""The PettingZoo AEC env: one table stepped per call (``raw_env``, its encoders, options, render)."""
