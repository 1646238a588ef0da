"""Request body size limit, enforced on the declared length and on the bytes actually received, and on every
message of a WebSocket (a socket's operations are requests too)."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.metrics import count_error


class BodyTooLarge(Exception):
    pass


class BodySizeLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self._app = app
        self._max = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._limit_socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self._max:
            await self._reject(send)
            return
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self._max:
                raise BodyTooLarge
            return message

        try:
            await self._app(scope, counting_receive, send)
        except BodyTooLarge:
            await self._reject(send)

    async def _limit_socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A message over the limit closes the socket with 1009 (message too big); the app sees a disconnect."""
        closed = False

        async def limited_receive() -> Message:
            nonlocal closed
            message = await receive()
            if message["type"] != "websocket.receive":
                return message
            text = message.get("text")
            size = len(text.encode()) if text is not None else len(message.get("bytes") or b"")
            if size <= self._max:
                return message
            closed = True
            reason = f"message over {self._max} bytes"
            await send({"type": "websocket.close", "code": 1009, "reason": reason})
            return {"type": "websocket.disconnect", "code": 1009, "reason": reason}

        async def guarded_send(message: Message) -> None:
            if not closed:  # after our close frame, nothing more may be sent on the socket
                await send(message)

        await self._app(scope, limited_receive, guarded_send)

    async def _reject(self, send: Send) -> None:
        count_error("PAYLOAD_TOO_LARGE")
        await send_json_error(send, 413, "PAYLOAD_TOO_LARGE", f"request body over {self._max} bytes")


async def send_json_error(send: Send, status: int, code: str, message: str, retry_after_s: int | None = None) -> None:
    """An HTTP error answered by a middleware (ASGI), in the shape of the API's other errors."""
    body = json.dumps({"errors": [{"message": message, "extensions": {"code": code}}]}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    if retry_after_s is not None:
        headers.append((b"retry-after", str(retry_after_s).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
