"""A client of another protocol version is refused with an error that names both versions.

The versions are always written relative to :data:`net.wire.messages.PROTOCOL_VERSION`
(one older, one newer), never as numbers: bumping the version is one line, and these
tests then check the new number against its neighbours.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from net.client import client as client_module
from net.client.client import Client, ClientError
from net.wire import protocol as protocol_module
from net.wire.messages import PROTOCOL_VERSION, Hello
from net.wire.protocol import version_mismatch
from tests.net.core_driver import CoreDriver
from tests.net.hosting import running_host

pytestmark = pytest.mark.timeout(60)

OLDER = PROTOCOL_VERSION - 1
NEWER = PROTOCOL_VERSION + 1


def test_the_refusal_names_both_versions_and_says_what_helps() -> None:
    text = version_mismatch({2}, 1)
    assert text == "This host speaks protocol 2; your Clowder speaks 1: update one of them"
    assert "protocol 2 or 3;" in version_mismatch({3, 2}, 1)


@pytest.mark.parametrize("version", [OLDER, NEWER], ids=["older", "newer"])
def test_the_host_core_refuses_a_client_of_another_version_then_closes(version: int) -> None:
    lines: list[str] = []
    driver = CoreDriver(log=lines.append)
    client = driver.connect(name=None)
    driver.send(client, Hello(protocol=version, name="Ann"))
    (refusal,) = client.received  # no welcome: the error is the host's first and last word
    assert refusal["type"] == "error" and refusal["code"] == "unsupported_version"
    assert refusal["message"] == version_mismatch({PROTOCOL_VERSION}, version)
    assert f"protocol {PROTOCOL_VERSION};" in refusal["message"]
    assert f"your Clowder speaks {version}:" in refusal["message"]
    assert client.gone()
    assert any("unsupported_version" in line for line in lines)  # the host's log says why


async def test_an_older_client_over_a_socket_gets_the_error_naming_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client_module, "PROTOCOL_VERSION", OLDER)  # an older release's client
    async with running_host(tmp_path) as host:
        old = Client("127.0.0.1", host.port, "Ann", reconnect=False)
        with pytest.raises(ClientError) as refused:
            await old.connect()
        await old.close()
    assert refused.value.code == "unsupported_version"
    assert refused.value.message == (
        f"This host speaks protocol {PROTOCOL_VERSION}; your Clowder speaks {OLDER}: "
        "update one of them"
    )


async def test_a_client_meeting_a_newer_host_shows_the_hosts_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(protocol_module, "SUPPORTED_VERSIONS", frozenset({NEWER}))
    async with running_host(tmp_path) as host:
        client = Client("127.0.0.1", host.port, "Ann", reconnect=False)
        with pytest.raises(ClientError) as refused:
            await client.connect()
        await client.close()
    assert refused.value.code == "unsupported_version"
    assert f"protocol {NEWER}; your Clowder speaks {PROTOCOL_VERSION}:" in refused.value.message
