"""Where the suites find the project, its binary and a free port, and the admin token every test
server is started with. A module of its own (beside signed_ids.py): two folders hold a
`conftest.py`, so `from conftest import …` reaches whichever pytest loaded last."""
import os
import socket
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# SWIPEDECK_BINARY overrides the binary (e.g. a build in another --scratch-path).
BINARY = Path(os.environ.get("SWIPEDECK_BINARY") or ROOT / ".build" / "debug" / "swipedeck").resolve()
ADMIN_TOKEN = "test-admin-token"


def free_port() -> int:
    # Picked on every address, not 127.0.0.1 alone: a server told `--host 0.0.0.0` cannot bind a port
    # another address holds (a browser's connection from the LAN address took one, in a stressed run).
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]
