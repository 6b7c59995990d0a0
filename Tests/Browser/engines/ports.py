"""A free TCP port on 127.0.0.1 (the driver and browser ports)."""
import socket


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
