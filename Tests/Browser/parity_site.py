"""A tiny static site on 127.0.0.1 for the in-browser parity run (test_engine_parity.py).

GET  /                      Tests/js/parity-page.html
GET  /parity-page.mjs       Tests/js/parity-page.mjs
GET  /parity-line.mjs       Tests/js/parity-line.mjs (the node runner's per-line code)
GET  /physics.js            the bytes the swipedeck server sends at /js/physics.js (passed in)
GET  /corpus/in.jsonl       the corpus ParityEngineTests.swift wrote (and /corpus/profiles.json)
GET  /fixtures/<name>       Tests/Fixtures/golden.jsonl and profiles.json
POST /out?engine=<name>     the page's output, written to <corpus>/out-<name>.jsonl
"""
import http.server
import shutil
import threading
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TYPES = {".html": "text/html; charset=utf-8", ".mjs": "text/javascript", ".js": "text/javascript",
         ".json": "application/json", ".jsonl": "text/plain; charset=utf-8"}


class ParitySite:
    def __init__(self, corpus_dir, physics_js):
        self.corpus = Path(corpus_dir)
        files = {
            "/": ROOT / "Tests/js/parity-page.html",
            "/parity-page.mjs": ROOT / "Tests/js/parity-page.mjs",
            "/parity-line.mjs": ROOT / "Tests/js/parity-line.mjs",
            "/corpus/in.jsonl": self.corpus / "in.jsonl",
            "/corpus/profiles.json": self.corpus / "profiles.json",
            "/fixtures/golden.jsonl": ROOT / "Tests/Fixtures/golden.jsonl",
            "/fixtures/profiles.json": ROOT / "Tests/Fixtures/profiles.json",
        }
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                path = urllib.parse.urlsplit(self.path).path
                if path == "/physics.js":
                    self._send(physics_js, "text/javascript")
                elif path in files and files[path].exists():
                    kind = TYPES.get(files[path].suffix, "text/html; charset=utf-8")
                    self.send_response(200)
                    self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(files[path].stat().st_size))
                    self.send_header("Cache-Control", "no-store")
                    self.end_headers()
                    with open(files[path], "rb") as f:
                        shutil.copyfileobj(f, self.wfile, 1 << 20)
                else:
                    self._send(b"not found", "text/plain", 404)

            def do_POST(self):
                url = urllib.parse.urlsplit(self.path)
                engine = urllib.parse.parse_qs(url.query).get("engine", ["page"])[0]
                if url.path != "/out" or not engine.isalnum():
                    self._send(b"not found", "text/plain", 404)
                    return
                left = int(self.headers.get("Content-Length", "0"))
                with open(site.output(engine), "wb") as f:
                    while left > 0:
                        chunk = self.rfile.read(min(left, 1 << 20))
                        if not chunk:
                            break
                        f.write(chunk)
                        left -= len(chunk)
                self._send(b"ok", "text/plain")

            def _send(self, body, kind, status=200):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def output(self, engine):
        return self.corpus / f"out-{engine}.jsonl"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
