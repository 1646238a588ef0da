"""The per-key socket cap is counted in Redis, so two API processes (here two policies on the real Redis) share it,
and the places of a process that died come free when their leases end."""

from __future__ import annotations

import time
import uuid

from app.api.services import ApiServices
from app.api.sockets import SocketPolicy
from engram.settings import EngramSettings


def _policies(settings: EngramSettings, services: ApiServices) -> tuple[SocketPolicy, SocketPolicy]:
    api = settings.api.model_copy(update={"ws_max_connections_per_key": 2})
    return SocketPolicy(api, services.redis), SocketPolicy(api, services.redis)


def test_two_processes_share_one_cap_and_a_closed_socket_frees_its_place(
    settings: EngramSettings, services: ApiServices
) -> None:
    first, second = _policies(settings, services)
    key = f"key-{uuid.uuid4().hex}"
    assert first.open(key, "a") and second.open(key, "b")
    assert not first.open(key, "c") and not second.open(key, "c")
    assert first.open(f"other-{key}", "a")  # another key has places of its own
    second.close(key, "b")
    assert first.open(key, "c")


def test_the_places_of_a_dead_process_come_free_when_their_leases_end(
    settings: EngramSettings, services: ApiServices
) -> None:
    dead, alive = _policies(settings, services)
    dead.lease_s = 0.5
    key = f"key-{uuid.uuid4().hex}"
    assert dead.open(key, "a") and dead.open(key, "b")
    assert not alive.open(key, "c")
    time.sleep(0.7)  # the dead process never renews nor closes
    assert alive.open(key, "c") and alive.open(key, "d")


def test_a_renewed_lease_keeps_its_place(settings: EngramSettings, services: ApiServices) -> None:
    first, second = _policies(settings, services)
    first.lease_s = 0.6
    key = f"key-{uuid.uuid4().hex}"
    assert first.open(key, "a") and first.open(key, "b")
    for _ in range(3):
        time.sleep(0.3)
        assert first.renew(key, "a") and first.renew(key, "b")
    assert not second.open(key, "c")  # 0.9 s after opening: held only because they were renewed


def test_a_renewal_never_takes_a_place_back(settings: EngramSettings, services: ApiServices) -> None:
    """A renewal still in flight when its socket closes, or one after the lease ran out (a key check throttled
    for long, Redis away), must not put the socket back over the cap: it must take a place again, under the cap."""
    first, second = _policies(settings, services)
    first.lease_s = 0.4
    key = f"key-{uuid.uuid4().hex}"
    assert first.open(key, "a")
    first.close(key, "a")
    assert not first.renew(key, "a")
    assert first.open(key, "b")
    time.sleep(0.6)  # b's lease ran out while its socket lived
    assert second.open(key, "c") and second.open(key, "d")
    assert not first.renew(key, "b") and not first.open(key, "b")  # the cap is full: the socket must go
