"""Run a bot and deliver one of its answers late, for tests: ``python late_wrapper.py N S CMD...``.

Every line on stdin goes to the bot CMD; every line it writes comes out on stdout, except that
its N-th line (1-based) is held back for S seconds first, as a bot that is slow once would be.
"""

import subprocess
import sys
import threading
import time

n, delay, command = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
bot = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)


def forward_input() -> None:
    for line in sys.stdin.buffer:
        bot.stdin.write(line)
    bot.stdin.close()


threading.Thread(target=forward_input, daemon=True).start()
for i, line in enumerate(bot.stdout, start=1):
    if i == n:
        time.sleep(delay)
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
sys.exit(bot.wait())
