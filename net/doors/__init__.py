"""The ways into a host, each a thin adapter around :mod:`net.core`: the asyncio host
(TCP), the SSH and web gateways, and advertising on the LAN.

The only room of the host with sockets and an event loop. It may import every other
room; the TUI (which starts hosts) and tests import it.
"""

import warnings
from typing import Final

# asyncssh (at the lowest version pyproject allows) imports ciphers that newer cryptography
# releases moved, and each import warns on stderr: in a host's log (a systemd journal, a
# terminal) that reads as a fault of Clowder's at every start. Only those warnings, only
# from asyncssh: the filter is set before net.doors.ssh_access or ssh_gateway import it.
warnings.filterwarnings(
    "ignore", message=r".* has been moved to cryptography\.hazmat\.decrepit", module=r"asyncssh\."
)

DEFAULT_PORT: Final = 7707
"""The game port a host listens on unless told otherwise (:mod:`net.doors.host` uses it).
Kept here, apart from the host, so that a client needing only the number (``clowder
join``: each SSH and browser player runs one) does not import the whole host to read it:
the host's core, tables, journals and scoreboard cost every such process about 1 MB and
70 ms of its start."""
