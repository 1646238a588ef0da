"""Each served API process announces its host in Redis every few seconds (`engram doctor` lists the API hosts it can
see, as it lists the workers' registrations: workers/scheduler.py `register_worker`). A host is named by its machine
name and the address it serves; an entry not renewed within three intervals is a host gone (or cut off).

Each entry also carries a fingerprint of the host's admin key and its embedder family: an API host that starts while
other hosts are alive with another admin key or another embedder (whose vectors its recall could not compare with the
spaces they write) is refused at start, naming the difference (`HostRefused`)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import redis

from app.api.services import ApiServices
from engram.embedder_identity import identity_of
from engram.settings import EngramSettings

log = logging.getLogger("engram.api")
API_HOSTS = "engram:hosts:api"  # "machine address:port" -> {"seen", "expires", "pid", "admin", "embedder"}
FORGET_AFTER_S = 24 * 3600  # an entry this long dead is dropped from the list


class HostRefused(RuntimeError):
    """This API host differs from those alive in a way that must not differ between hosts."""


@dataclass(frozen=True)
class ApiHost:
    name: str
    seen: float
    expires: float
    pid: int
    admin: str = ""  # a fingerprint of its admin key (never the key)
    embedder: str = ""  # its embedder family (engram/embedder_identity.py)

    def alive(self, now: float) -> bool:
        return self.expires > now


def host_name(address: str, port: int) -> str:
    return f"{socket.gethostname()} {address}:{port}"


def admin_fingerprint(admin_key: str) -> str:
    """Enough to tell two keys apart, nothing to recover one from (the key has 192 random bits: infra/lib.sh)."""
    return hashlib.sha256(f"engram-admin-key:{admin_key}".encode()).hexdigest()[:12] if admin_key else "none"


def beat(
    client: redis.Redis, name: str, interval_s: float, admin: str = "", embedder: str = "", now: float | None = None
) -> None:
    now = time.time() if now is None else now
    entry = {"seen": now, "expires": now + 3 * interval_s, "pid": os.getpid(), "admin": admin, "embedder": embedder}
    client.hset(API_HOSTS, name, json.dumps(entry))


def refusal(hosts: list[ApiHost], name: str, admin: str, embedder: str, now: float) -> str | None:
    """Why this host (`name`) must not start beside the other hosts alive, or None."""
    others = [host for host in hosts if host.alive(now) and host.name != name]
    for host in others:
        if host.admin and host.admin != admin:
            return (
                f"this API host's admin key (ENGRAM_API_ADMIN_KEY, fingerprint {admin}) is not the one the API host "
                f"{host.name!r}, alive now, uses (fingerprint {host.admin}): every API host must have the same admin "
                "key. Set it on this host; to change it, stop every API host, then start them with the new key"
            )
        if host.embedder and host.embedder != embedder:
            return (
                f"this API host embeds with family {embedder}, the API host {host.name!r}, alive now, with "
                f"{host.embedder}: the spaces hold one family's vectors, and a query vector of another cannot be "
                "compared with them. Give this host the same ENGRAM_EMBEDDING_* settings (docs/embedding.md)"
            )
    return None


def api_hosts(client: redis.Redis, now: float | None = None) -> list[ApiHost]:
    """Every API host announced in the last day, by name; those long dead are dropped."""
    now = time.time() if now is None else now
    raw: dict[bytes, bytes] = client.hgetall(API_HOSTS)  # type: ignore[assignment]
    hosts = []
    for field, value in sorted(raw.items()):
        entry = json.loads(value)
        host = ApiHost(
            field.decode(), float(entry["seen"]), float(entry["expires"]), int(entry["pid"]),
            str(entry.get("admin", "")), str(entry.get("embedder", "")),
        )  # fmt: skip
        if now - host.seen > FORGET_AFTER_S:
            client.hdel(API_HOSTS, field)
        else:
            hosts.append(host)
    return hosts


class HostBeat:
    """A thread of the served API: `beat` every `interval_s` until stopped (Redis away: the next round tries again)."""

    def __init__(self, client: redis.Redis, name: str, interval_s: float, admin: str, embedder: str) -> None:
        self._client, self._name, self._interval_s = client, name, interval_s
        self._admin, self._embedder = admin, embedder
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="engram-host-beat", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                beat(self._client, self._name, self._interval_s, self._admin, self._embedder)
            except redis.RedisError as exc:
                log.warning("api host heartbeat: %s; tried again in %.0f s", exc, self._interval_s)
            self._stop.wait(self._interval_s)


@asynccontextmanager
async def announced(services: ApiServices, owned: bool) -> AsyncIterator[None]:
    """While the served API runs (`owned`: it made its services), its host beats; apps sharing a test's services
    do not announce themselves."""
    if not owned:
        yield
        return
    api, name = services.settings.api, host_name(services.settings.api.host, services.settings.api.port)
    admin, embedder = admin_fingerprint(api.admin_key.get_secret_value()), services.embedder_identity.family
    beats = HostBeat(services.redis, name, services.settings.worker.reconcile_interval_s, admin, embedder)
    beats.start()
    try:
        yield
    finally:
        await asyncio.to_thread(beats.stop)


def refuse_unlike_hosts(settings: EngramSettings) -> None:
    """Before the served API loads anything: HostRefused where the API hosts alive now have another admin key or
    another embedder family than this one would (`engram doctor` lists them)."""
    api = settings.api
    admin = admin_fingerprint(api.admin_key.get_secret_value())
    embedder = identity_of(settings.embedding).family
    try:
        with redis.Redis.from_url(settings.redis.url, socket_timeout=10) as client:
            hosts = api_hosts(client)
    except redis.RedisError as exc:  # not known: /readyz tells Redis is away; the check is made at the next start
        log.warning("could not compare this API host with the others (Redis: %s)", exc)
        return
    why = refusal(hosts, host_name(api.host, api.port), admin, embedder, time.time())
    if why is not None:
        log.error("refused to start: %s", why)
        raise HostRefused(why)
