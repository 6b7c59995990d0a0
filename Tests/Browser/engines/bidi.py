"""A small WebDriver BiDi client over websocket-client: commands by id, events to subscribers.

Firefox speaks BiDi itself when started with --remote-debugging-port (no geckodriver). Its server refuses
a handshake that carries an Origin header, so the client sends none."""
import itertools
import json
import threading

import websocket

from .base import EngineError


class BiDi:
    def __init__(self, url, timeout=120):
        self.ws = websocket.create_connection(url, timeout=timeout, suppress_origin=True)
        self.timeout = timeout
        self.ids = itertools.count(1)
        self.pending = {}
        self.handlers = []
        self.lock = threading.Lock()
        self.closed = False
        self.reader = threading.Thread(target=self._read, name="bidi-reader", daemon=True)
        self.reader.start()

    def _read(self):
        while not self.closed:
            try:
                message = json.loads(self.ws.recv())
            except (websocket.WebSocketException, OSError, ValueError):
                break
            if "id" in message:
                with self.lock:
                    slot = self.pending.pop(message["id"], None)
                if slot:
                    slot[1].append(message)
                    slot[0].set()
            elif message.get("type") == "event":
                for handler in list(self.handlers):
                    handler(message["method"], message["params"])
        self.closed = True
        with self.lock:
            slots, self.pending = list(self.pending.values()), {}
        for done, _ in slots:
            done.set()

    def send(self, method, params=None, timeout=None):
        """Sends one command and returns its result; an error answer raises EngineError."""
        if self.closed:
            raise EngineError(f"firefox: connection closed before {method}")
        command_id = next(self.ids)
        slot = (threading.Event(), [])
        with self.lock:
            self.pending[command_id] = slot
        self.ws.send(json.dumps({"id": command_id, "method": method, "params": params or {}}))
        if not slot[0].wait(timeout or self.timeout) or not slot[1]:
            raise EngineError(f"firefox: no answer to {method}")
        answer = slot[1][0]
        if answer.get("type") == "error":
            raise EngineError(f"firefox {method}: {answer.get('error')}: {answer.get('message')}")
        return answer["result"]

    def on(self, handler):
        """handler(method, params) for every event."""
        self.handlers.append(handler)

    def close(self):
        self.closed = True
        try:
            self.ws.close()
        except (websocket.WebSocketException, OSError):
            pass
