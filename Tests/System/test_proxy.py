"""Behind a real reverse proxy (issue 25): Debian's nginx terminating TLS with a throwaway
self-signed certificate, in front of two servers on one PostgreSQL database (one server on
SQLite, whose file one process serves).

Clients come from their own loopback networks (127.0.1.2 and 127.0.2.2: two /24s, so two join
budgets); nginx reaches the servers from 127.0.0.1, the only trusted proxy. Through the proxy:
pages, swipes, live results (unbuffered) and sign-in work, cookies are `__Host-` and `Secure`,
answers carry HSTS, two clients get separate budgets; a client forging `X-Forwarded-For`, through
the proxy or straight to a server, gains nothing.
"""
import http.client
import json
import random
import shutil
import ssl
import subprocess
import threading
import time
from pathlib import Path

import pytest

from testenv import BINARY, ROOT, free_port
from sd_helpers import card_ids, swipe_body

ADMIN = {"Authorization": "Bearer test-admin-token"}
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
ALICE, BOB = "127.0.1.2", "127.0.2.2"


def nginx_config(directory: Path, port: int, upstreams) -> str:
    servers = "\n".join(f"        server 127.0.0.1:{u};" for u in upstreams)
    return f"""
daemon off;
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/nginx-error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    limit_conn_zone $binary_remote_addr zone=perclient:10m;
    client_body_temp_path {directory}/body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;
    upstream swipedeck {{
{servers}
        keepalive 8;
    }}
    server {{
        listen 127.0.0.1:{port} ssl;
        ssl_certificate {directory}/cert.pem;
        ssl_certificate_key {directory}/key.pem;
        client_max_body_size 10m;
        client_header_timeout 10s; client_body_timeout 20s; limit_conn perclient 64;
        location / {{
            proxy_pass http://swipedeck;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-Host $http_host;
            proxy_set_header Forwarded "";
            proxy_buffering off;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""


@pytest.fixture()
def proxy(make_server, db_engine, tmpdir_path):
    if not Path(NGINX).exists():
        pytest.fail("nginx is missing: `make test` installs Debian's nginx-light")
    args = ["--trusted-proxy", "127.0.0.1", "--hsts", "--rate-mint", "0.05"]
    servers = [make_server(extra_args=args, db_name="proxied")]
    if db_engine == "postgres":
        servers.append(make_server(extra_args=args, db_name="proxied"))
    directory = tmpdir_path / "nginx"
    directory.mkdir()
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-keyout", directory / "key.pem", "-out", directory / "cert.pem"], check=True, capture_output=True)
    port = free_port()
    (directory / "nginx.conf").write_text(nginx_config(directory, port, [s.port for s in servers]))
    proc = subprocess.Popen([NGINX, "-c", str(directory / "nginx.conf"), "-p", str(directory)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            with socket_to(port):
                break
        except OSError:
            time.sleep(0.05)
    yield port, servers
    proc.terminate()
    proc.wait(10)


def socket_to(port):
    import socket
    return socket.create_connection(("127.0.0.1", port), timeout=1)


TLS = ssl.create_default_context()
TLS.check_hostname = False
TLS.verify_mode = ssl.CERT_NONE


def call(port, method, path, body=None, headers=None, source=ALICE, tls=True):
    """(status, headers as a list of pairs, body bytes) from `source` (a loopback address)."""
    if tls:
        conn = http.client.HTTPSConnection("127.0.0.1", port, context=TLS, timeout=30, source_address=(source, 0))
    else:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    h = {"Content-Type": "application/json"} if body is not None and not isinstance(body, bytes) else {}
    h.update(headers or {})
    conn.request(method, path, body=data, headers=h)
    r = conn.getresponse()
    out = (r.status, r.getheaders(), r.read())
    conn.close()
    return out


def header(pairs, name):
    return [v for k, v in pairs if k.lower() == name.lower()]


def test_pages_swipes_live_results_and_sign_in_work_through_nginx(proxy, db_engine):
    port, servers = proxy
    origin = f"https://127.0.0.1:{port}"
    status, headers, page = call(port, "GET", "/d/getaways")
    assert status == 200 and b"<html" in page
    cookie = header(headers, "Set-Cookie")
    assert len(cookie) == 1 and cookie[0].startswith("__Host-sd_pid=") and "; Secure" in cookie[0], cookie
    assert header(headers, "Strict-Transport-Security") == ["max-age=31536000"]
    jar = cookie[0].split(";")[0]

    # Live results through the proxy: an event arrives for a swipe (nothing buffers the stream).
    events = []
    ready = threading.Event()

    def watch():
        conn = http.client.HTTPSConnection("127.0.0.1", port, context=TLS, timeout=30, source_address=(ALICE, 0))
        conn.request("GET", "/api/v1/decks/getaways/results/live", headers=ADMIN)
        response = conn.getresponse()
        ready.set()
        while len(events) < 2:
            line = response.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                events.append((time.time(), json.loads(line[6:])["allSwipes"]))
        conn.close()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    assert ready.wait(10)
    time.sleep(0.5)

    # Swipes by the browser's cookie, each through the proxy to one of the servers (round robin).
    cards = card_ids(servers[0])
    rng = random.Random(9)
    sent = None
    for card in cards[:4]:
        body = swipe_body(card, "unused", "right", rng)
        del body["participant"]
        status, _, raw = call(port, "POST", "/api/v1/decks/getaways/swipes", body, {"Cookie": jar, "Origin": origin})
        assert status == 201, raw[:300]
        sent = sent or time.time()
    watcher.join(10)
    assert events and events[-1][1] >= 1, events
    assert events[-1][0] - sent < 5

    # An owner signs in through the proxy: the session cookie is __Host- and Secure.
    name = "proxied-owner"
    add = subprocess.run([str(BINARY), "owner", "add", name, "--password-stdin", *servers[0].database_args()],
                         input="correct horse battery staple 25\n", capture_output=True, text=True, cwd=ROOT)
    assert add.returncode == 0, add.stderr
    status, headers, raw = call(
        port, "POST", "/owner/sign-in", b"name=proxied-owner&password=correct+horse+battery+staple+25&next=%2Fowner",
        {"Content-Type": "application/x-www-form-urlencoded", "Origin": origin})
    assert status in (302, 303), raw[:300]
    session = [c for c in header(headers, "Set-Cookie") if c.startswith("__Host-sd_owner=")]
    assert session and "; Secure" in session[0] and "HttpOnly" in session[0], header(headers, "Set-Cookie")
    status, _, raw = call(port, "GET", "/owner", headers={"Cookie": session[0].split(";")[0]})
    assert status == 200 and name.encode() in raw


def test_each_client_has_its_own_budget_and_forging_gains_nothing(proxy):
    port, servers = proxy
    join = "/api/v1/decks/getaways/participants"
    # --rate-mint 0.05: three joins at once per network.
    alice = [call(port, "POST", join, source=ALICE)[0] for _ in range(4)]
    assert alice == [201, 201, 201, 429], alice
    # Another network, through the same proxy: its own budget.
    assert call(port, "POST", join, source=BOB)[0] == 201
    # Alice claiming another address through the proxy: nginx appends her real one, which counts;
    # an RFC 7239 Forwarded header of her own does not reach the server (field test).
    assert call(port, "POST", join, headers={"X-Forwarded-For": "203.0.113.9"}, source=ALICE)[0] == 429
    assert call(port, "POST", join, headers={"Forwarded": "for=10.77.1.2"}, source=ALICE)[0] == 429
    # Nor does she turn the cookie hardening off, or name the host share links use.
    status, headers, _ = call(port, "GET", "/", headers={"Forwarded": "proto=http", "X-Forwarded-Proto": "http"}, source=BOB)
    cookies = header(headers, "Set-Cookie")
    assert cookies and all(c.startswith("__Host-") and "; Secure" in c for c in cookies), cookies
    status, _, svg = call(port, "GET", "/d/getaways/qr.svg", headers={"X-Forwarded-Host": "evil.example"}, source=BOB)
    assert status == 200 and b"evil.example" not in svg
    # Straight to a server, her header is ignored (she is no trusted proxy): her own budget, spent,
    # on every server.
    for server in servers:
        status, _, raw = call(server.port, "POST", join, headers={"X-Forwarded-For": "198.51.100.7"}, source=ALICE, tls=False)
        assert status == 429, raw[:300]
        status, headers, _ = call(server.port, "GET", "/", headers={"X-Forwarded-Proto": "https"}, source=BOB, tls=False)
        assert not any("Secure" in c for c in header(headers, "Set-Cookie"))
        assert header(headers, "Strict-Transport-Security") == []
