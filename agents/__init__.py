"""Baseline agents that play through the environment API (they import only ``engine``)."""
