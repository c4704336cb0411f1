"""The laptop's addresses on the home network (where the phones can reach it).

Only private (home network) IPv4 addresses are used: never a public address, never every
interface at once. Asking the system which local address would route to a private network sends
no packet (a UDP socket is "connected" but never used).
"""

from __future__ import annotations

import ipaddress
import socket

# Private networks a home router hands out; the probe addresses are never contacted.
_PROBES = ("192.168.0.1", "10.0.0.1", "172.16.0.1")


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and ip.is_private and not ip.is_loopback and not ip.is_link_local


def lan_addresses() -> list[str]:
    """This computer's home-network IPv4 addresses, the one with the usual route first ([] when
    it is on no network: the phones cannot reach it then)."""
    found: list[str] = []
    for probe in _PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                found.append(s.getsockname()[0])
        except OSError:
            continue
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(info[4][0])
    except OSError:
        pass
    out: list[str] = []
    for address in found:
        if _usable(address) and address not in out:
            out.append(address)
    return out
