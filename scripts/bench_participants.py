"""Prints the participant ids bench_swipes.lua names, signed as the bench server signs them.

The server accepts only credentials it signed (HMAC-SHA256 over "credential:" + body with its
secret, see Sources/SwipedeckServer/Domain/ParticipantSigner.swift). The bench server is started
with a known `--participant-secret`, and this script signs the readable bodies the wrk script uses
(`RUN-tTHREAD-K`), one credential per line, so wrk does not have to compute HMACs. A readable body
is a device credential without a mint time (no expiry, no reading-time pace rule), as tests use.

    python3 scripts/bench_participants.py SECRET RUN [RUN ...] --threads 2 --per-thread 20000
"""
import argparse
import hashlib
import hmac

parser = argparse.ArgumentParser()
parser.add_argument("secret")
parser.add_argument("runs", nargs="+")
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--per-thread", type=int, default=20000)
args = parser.parse_args()
key = args.secret.encode()
for run in args.runs:
    for thread in range(1, args.threads + 1):
        for k in range(args.per_thread):
            body = f"{run}-t{thread}-{k}"
            mac = hmac.new(key, ("credential:" + body).encode(), hashlib.sha256).hexdigest()[:24]
            print(f"{body}-{mac}")
