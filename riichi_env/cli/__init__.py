"""The ``riichi-env`` command line (``riichi_env.cli.main.main``), one module per subcommand."""
