"""The compiled core every table path builds on: the runner (``runner.py``), its declared records
(``fields.py``), the replay's record-driven seat (``record_seat.py``), its decisions
(``replay.py``) and its rows (``rows.py``), the observation encoders (``encoders.py``), the
options the envs share (``options.py``) and the compile entry points (``compiling.py``,
``compile_helper.py``). It imports ``engine`` and nothing of ``riichi_env`` above it."""
