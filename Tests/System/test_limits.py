"""Connection hygiene over real sockets (README § Limits): idle and slowloris connections are
closed after their timeouts; /healthz and swipes keep working while 2,000 idle sockets are open;
the per-address and total connection caps answer 503 `too_many_connections`; live results
streams beyond their caps get 429 `too_many_streams`.

Every client is on 127.0.0.1 unless it binds another loopback source address (127.0.0.2 …),
which the server sees as another client. Timeouts are shortened by flags, so the whole file runs
in well under a minute.
"""
import json
import os
import resource
import selectors
import socket
import subprocess
import time

import pytest

from testenv import BINARY
from sd_helpers import card_ids, error_code, raw_request, swipe_body

LIVE = "/api/v1/decks/getaways/results/live"
ADMIN_TOKEN = "test-admin-token"  # the shared fixture starts every server with it


def connect(port, source="127.0.0.1"):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def read_head(s, timeout=5.0):
    """The response head (status line and headers, as text) and its body when it has a
    Content-Length (else the body bytes that came with the head: a stream's first events);
    ("", b"") when the server closed or reset the connection first."""
    s.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                return "", b""
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        head = head.decode("latin-1")
        length = [int(l.split(":", 1)[1]) for l in head.split("\r\n") if l.lower().startswith("content-length:")]
        while length and len(rest) < length[0]:
            chunk = s.recv(65536)
            if not chunk:
                break
            rest += chunk
    except (ConnectionResetError, socket.timeout):
        return "", b""
    return head, rest


def is_closed(s, wait):
    """Whether the server closed (or reset) `s` within `wait` seconds."""
    s.settimeout(wait)
    try:
        return s.recv(1) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def is_silent(s, wait):
    """Whether `s` is still open with nothing sent on it after `wait` seconds."""
    s.settimeout(wait)
    try:
        s.recv(1)
        return False
    except ConnectionResetError:
        return False
    except socket.timeout:
        return True


def get(s, path, headers=""):
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n{headers}\r\n".encode())


def healthz_via_fresh_connection(port, source="127.0.0.1"):
    with connect(port, source) as s:
        get(s, "/healthz", "Connection: close\r\n")
        head, _ = read_head(s)
        return head.split("\r\n")[0]


def raise_descriptor_limit(wanted):
    """Raises this process's soft descriptor limit to `wanted` (the server started after
    inherits it); skips the test when the hard limit is lower."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"the hard descriptor limit ({hard}) is below {wanted}")
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def test_idle_and_slowloris_connections_are_closed(make_server):
    server = make_server(extra_args=["--idle-timeout", "4", "--header-timeout", "1"])
    idle = [connect(server.port) for _ in range(20)]
    # Kept alive after one answered request: idle again from the answer on.
    kept = connect(server.port)
    get(kept, "/healthz")
    assert read_head(kept)[0].startswith("HTTP/1.1 200")
    slow = [connect(server.port) for _ in range(20)]
    for s in slow:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
    started = time.monotonic()
    closed_at = {}
    selector = selectors.DefaultSelector()
    for s in idle + slow + [kept]:
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
    line = 0
    while len(closed_at) < len(idle) + len(slow) + 1 and time.monotonic() - started < 9:
        # A slowloris: one more header line every 0.2 s, never the blank line that ends them.
        line += 1
        for s in slow:
            if s not in closed_at:
                try:
                    s.sendall(f"X-Trickle-{line}: x\r\n".encode())
                except OSError:
                    closed_at[s] = time.monotonic() - started
        for key, _ in selector.select(timeout=0.2):
            s = key.fileobj
            try:
                gone = s.recv(4096) == b""
            except ConnectionResetError:
                gone = True
            except BlockingIOError:
                gone = False
            if gone:
                closed_at[s] = time.monotonic() - started
                selector.unregister(s)
    for s in idle + slow + [kept]:
        s.close()
    slow_times = [closed_at.get(s) for s in slow]
    idle_times = [closed_at.get(s) for s in idle + [kept]]
    # The header deadline (1 s) cuts every slowloris off long before the idle timeout (4 s)…
    assert all(t is not None and 0.8 <= t < 3 for t in slow_times), slow_times
    # …and the idle timeout closes the silent ones, not before it.
    assert all(t is not None and 3.5 <= t < 8 for t in idle_times), idle_times
    assert server.request("GET", "/healthz")[0] == 200


def test_a_trickled_body_is_cut_off_at_the_body_timeout(make_server):
    """A POST whose body comes a byte every half second (field test: one held a connection past
    every other timeout) is closed 2 s after its head, whatever it still sends; a whole body in time
    is answered."""
    server = make_server(extra_args=["--body-timeout", "2", "--header-timeout", "1"])
    s = connect(server.port)
    s.sendall(b"POST /api/v1/decks/getaways/participants HTTP/1.1\r\nHost: localhost\r\n"
              b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
    started = time.monotonic()
    closed = None
    s.settimeout(0.5)
    while time.monotonic() - started < 8:
        try:
            s.sendall(b" ")
            if s.recv(4096) == b"":
                closed = time.monotonic() - started
                break
        except socket.timeout:
            continue
        except OSError:
            closed = time.monotonic() - started
            break
    s.close()
    assert closed is not None and 1.5 <= closed < 4, closed
    status, _, _ = server.request("POST", "/api/v1/decks/getaways/participants", body={})
    assert status == 201


def test_bodies_being_read_hold_no_more_memory_than_the_budget(make_server):
    """Two half-sent 500 kB bodies hold a 1 MB budget: a third body is answered 503 server_busy at
    once (field test: 2,000 half-sent 2 MiB bodies took 5 GB); once they are gone, bodies pass."""
    server = make_server(extra_args=["--max-body", "600000", "--max-body-memory", "1000000"])
    head = (b"POST /api/v1/decks/getaways/swipes HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: application/json\r\nContent-Length: 500000\r\n\r\n")
    holders = []
    for _ in range(2):
        s = connect(server.port)
        s.sendall(head + b"[" * 1000)
        holders.append(s)
    time.sleep(0.5)
    third = connect(server.port)
    third.sendall(head + b"[" * 1000)
    head_text, body = read_head(third)
    third.close()
    assert head_text.startswith("HTTP/1.1 503") and b'"server_busy"' in body, (head_text, body)
    for s in holders:
        s.close()
    time.sleep(0.5)
    status, headers, body = server.request("POST", "/api/v1/decks/getaways/swipes", body={"swipes": []})
    assert status != 503, (status, body)


def test_healthz_and_a_swipe_while_2000_idle_sockets_are_open(make_server):
    raise_descriptor_limit(4096)
    server = make_server(extra_args=["--max-connections", "3000", "--max-connections-per-address", "3000",
                                     "--rate-participant", "0", "--rate-ip", "0"])
    cards = card_ids(server)
    idle = []
    try:
        for i in range(2000):
            idle.append(connect(server.port, f"127.0.0.{2 + i % 8}"))
        time.sleep(0.5)
        started = time.monotonic()
        assert healthz_via_fresh_connection(server.port).startswith("HTTP/1.1 200")
        body = json.dumps(swipe_body(cards[0], "among-idle-sockets")).encode()
        status, _, raw = raw_request(server.port, "POST", "/api/v1/decks/getaways/swipes", body,
                                     {"Content-Type": "application/json"}, timeout=10)
        assert status == 201, raw[:300]
        assert time.monotonic() - started < 5
        # The idle sockets are all still held open (the idle timeout is the default 75 s).
        assert sum(1 for s in idle[:200] if not is_closed(s, 0.001)) == 200
    finally:
        for s in idle:
            s.close()


def test_connection_caps_per_address_and_in_total(make_server):
    server = make_server(extra_args=["--max-connections", "30", "--max-connections-per-address", "20"])
    held = []
    try:
        # 20 connections from one address are served (and kept alive)…
        for _ in range(20):
            s = connect(server.port, "127.0.0.2")
            get(s, "/healthz")
            assert read_head(s)[0].startswith("HTTP/1.1 200")
            held.append(s)
        # …the 21st is answered 503 at once, without a request, and closed.
        extra = connect(server.port, "127.0.0.2")
        head, body = read_head(extra)
        assert head.startswith("HTTP/1.1 503"), head
        assert "\r\nRetry-After: 5" in head
        assert error_code(body) == "too_many_connections", body
        assert is_closed(extra, 2)
        extra.close()
        # Another address is not held to that address's cap.
        assert healthz_via_fresh_connection(server.port, "127.0.0.1").startswith("HTTP/1.1 200")
        # Closing one frees its place.
        held.pop().close()
        for _ in range(40):
            s = connect(server.port, "127.0.0.2")
            get(s, "/healthz")
            head, _ = read_head(s)
            if head.startswith("HTTP/1.1 200"):
                held.append(s)
                break
            s.close()
            time.sleep(0.05)
        else:
            pytest.fail("no place came free after a connection closed")
        # The total: 20 + 10 from two more addresses fill 30; the next is refused, whoever it is.
        for i in range(10):
            s = connect(server.port, f"127.0.0.{3 + i % 2}")
            get(s, "/healthz")
            assert read_head(s)[0].startswith("HTTP/1.1 200")
            held.append(s)
        refused = connect(server.port, "127.0.0.5")
        head, body = read_head(refused)
        assert head.startswith("HTTP/1.1 503") and error_code(body) == "too_many_connections", head
        refused.close()
    finally:
        for s in held:
            s.close()
    # Once they closed, the server takes connections again.
    for _ in range(40):
        if healthz_via_fresh_connection(server.port).startswith("HTTP/1.1 200"):
            break
        time.sleep(0.05)
    else:
        pytest.fail("the server did not take connections after the held ones closed")


def open_stream(port, source):
    s = connect(port, source)
    get(s, LIVE, f"Authorization: Bearer {ADMIN_TOKEN}\r\n")
    head, body = read_head(s)
    return s, head, body


def test_streams_beyond_the_caps_get_429(make_server):
    server = make_server(extra_args=["--max-streams", "5", "--max-streams-per-client", "3"])
    streams = []
    try:
        for _ in range(3):
            s, head, _ = open_stream(server.port, "127.0.0.2")
            assert head.startswith("HTTP/1.1 200") and "text/event-stream" in head, head
            streams.append(s)
        # A fourth from the same client: 429, JSON, Retry-After.
        s, head, body = open_stream(server.port, "127.0.0.2")
        assert head.startswith("HTTP/1.1 429"), head
        assert "\r\nRetry-After: 15" in head
        assert error_code(body) == "too_many_streams", body
        s.close()
        # Another client may open up to the total (5)…
        for _ in range(2):
            s, head, _ = open_stream(server.port, "127.0.0.3")
            assert head.startswith("HTTP/1.1 200"), head
            streams.append(s)
        # …and a third client is refused by the total.
        s, head, body = open_stream(server.port, "127.0.0.4")
        assert head.startswith("HTTP/1.1 429") and error_code(body) == "too_many_streams", head
        s.close()
        # Results themselves still answer.
        status, _, _ = server.request("GET", "/api/v1/decks/getaways/results", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        assert status == 200
    finally:
        for s in streams:
            s.close()


def test_a_quiet_stream_gets_heartbeats_below_the_idle_timeout(make_server):
    # Idle timeout 2 s: the default heartbeat (15 s) follows it down to 1 s.
    server = make_server(extra_args=["--idle-timeout", "2"])
    s, head, first = open_stream(server.port, "127.0.0.1")
    try:
        assert head.startswith("HTTP/1.1 200"), head
        received = first
        s.settimeout(0.5)
        deadline = time.monotonic() + 3.6
        while time.monotonic() < deadline:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                continue
            assert chunk, "the stream was closed"
            received += chunk
        # 3.6 s of quiet: three heartbeats (1 s apart), and the stream outlived the idle timeout.
        assert received.count(b": ping") >= 3, received[-300:]
        assert not is_closed(s, 0.1)
    finally:
        s.close()


@pytest.mark.parametrize("args, env, sentence", [
    ([], {"SWIPEDECK_IDLE_TIMEOUT": "soon"}, "SWIPEDECK_IDLE_TIMEOUT is 'soon': it must be a number"),
    (["--header-timeout", "0"], {}, "--header-timeout must be a number of seconds"),
    (["--sse-heartbeat", "80"], {}, "heartbeat"),
    (["--max-streams", "0"], {}, "at least 1"),
])
def test_bad_limits_stop_the_start_with_a_sentence(tmpdir_path, args, env, sentence):
    out = subprocess.run([str(BINARY), "serve", "--port", "0", "--db", str(tmpdir_path / "x.sqlite"), *args],
                         capture_output=True, text=True, timeout=30, env=dict(os.environ, **env))
    assert out.returncode != 0
    assert sentence in out.stderr, out.stderr


def test_a_hall_behind_one_address_fits_under_a_soft_descriptor_limit_of_1024(make_server):
    """Started as many services are, at a soft descriptor limit of 1,024 under a larger hard one, the
    server raises its own soft limit at start (to the hard one, at most 65,536), so the default caps
    follow the raised limit: 300 phones behind one NAT address each hold a connection and the next
    request from that address is served, where a quarter of 1,024 − 128 would have refused the 225th."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert hard == resource.RLIM_INFINITY or hard >= 2048, f"this test needs a hard limit of 2,048+ ({hard})"
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
    try:
        server = make_server()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    limits = open(f"/proc/{server.proc.pid}/limits").read()
    row = next(line for line in limits.splitlines() if line.startswith("Max open files"))
    ceiling = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
    assert row.split()[3] == str(ceiling), row
    hall = []
    try:
        for _ in range(300):
            hall.append(connect(server.port, "127.0.0.77"))
        time.sleep(0.3)
        assert healthz_via_fresh_connection(server.port, "127.0.0.77").startswith("HTTP/1.1 200")
        # Held open and told nothing: a connection past a cap is answered 503 at once, then closed.
        assert sum(1 for s in hall[-20:] if is_silent(s, 0.01)) == 20
    finally:
        for s in hall:
            s.close()
