"""``python -m riichi_env`` runs the command line."""

import sys

from riichi_env.cli.main import main

sys.exit(main())
