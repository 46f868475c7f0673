"""A stand-in for the Clowder client behind a browser page: speaks Textual's web-driver
protocol (:mod:`net.doors.web_session`) and nothing else, so the gateway's tests need no app.

It says it is ready, tells its folder (``HOME``) and size, then echoes typed keys back as
terminal output (``echo:KEYS``), reports resizes (``size:80x24``) and ends on ``quit``, on
end of input, or when it is typed ``!exit`` (as an app the player quits).
"""

from __future__ import annotations

import json
import os
import sys


def send(kind: bytes, payload: bytes) -> None:
    sys.stdout.buffer.write(kind + len(payload).to_bytes(4, "big") + payload)
    sys.stdout.buffer.flush()


def main() -> None:
    sys.stdout.buffer.write(b"__GANGLION__\n")
    send(b"D", f"home:{os.environ.get('HOME', '')}".encode())
    send(b"D", f"size:{os.environ.get('COLUMNS')}x{os.environ.get('ROWS')}".encode())
    stdin = sys.stdin.buffer
    while True:
        header = stdin.read(5)
        if len(header) < 5:
            return
        payload = stdin.read(int.from_bytes(header[1:], "big"))
        if header[:1] == b"D":
            if payload == b"!exit":
                send(b"M", json.dumps({"type": "exit"}).encode())
                return
            send(b"D", b"echo:" + payload)
        elif header[:1] == b"M":
            meta = json.loads(payload)
            if meta.get("type") == "quit":
                return
            if meta.get("type") == "resize":
                send(b"D", f"size:{meta['width']}x{meta['height']}".encode())


if __name__ == "__main__":
    main()
