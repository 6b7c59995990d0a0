"""A client of Swipedeck's join puzzles (README: Joining a crowd), for the tests and the benchmarks.

Past the free join budget (`POST /api/v1/decks/{deck}/participants` answers 429 `rate_limited`), a client
asks for a puzzle (`POST …/puzzles`), finds the number n in 0…maxNumber whose SHA-256 of salt + n (in
decimal) is the challenge, and sends the puzzle back with it (`{"puzzle": {…, "number": n}}`) to
`…/participants` (a credential in the body) or `…/join` (the deck page's: a cookie). The work is the
server's `JoinDifficulty`: maxNumber / 2 hashes on average.

`request(method, path, body)` is any callable returning (status, parsed JSON or None): each benchmark and
test brings its own connection.
"""
import hashlib
import time


def solve(puzzle):
    """The number solving `puzzle` and how many hashes it took (None, tried when none does)."""
    target = bytes.fromhex(puzzle["challenge"])
    prefix = hashlib.sha256(puzzle["salt"].encode())
    for n in range(puzzle["maxNumber"] + 1):
        h = prefix.copy()
        h.update(str(n).encode())
        if h.digest() == target:
            return n, n + 1
    return None, puzzle["maxNumber"] + 1


def solution(puzzle):
    """`puzzle` with its answer, as the server takes it back."""
    number, _ = solve(puzzle)
    return dict(puzzle, number=number)


class Joined:
    """What one join cost: the credential (None when refused), the puzzles solved, hashes tried, and the
    process CPU seconds spent solving."""

    def __init__(self):
        self.credential = None
        self.free = False
        self.puzzles = 0
        self.hashes = 0
        self.solve_seconds = 0.0
        self.status = 0


def join(request, slug, attempts=3):
    """A participant credential for deck `slug`: free within the budget, else paid with puzzles (a refused
    solution — stale, used — is followed by a fresh puzzle, at most `attempts` times)."""
    out = Joined()
    status, body = request("POST", f"/api/v1/decks/{slug}/participants", None)
    out.status = status
    if status == 201:
        out.credential, out.free = body["participant"], True
        return out
    if status != 429:
        return out
    for _ in range(attempts):
        status, puzzle = request("POST", f"/api/v1/decks/{slug}/puzzles", None)
        out.status = status
        if status != 201:
            return out
        started = time.process_time()
        number, hashes = solve(puzzle)
        out.solve_seconds += time.process_time() - started
        out.puzzles += 1
        out.hashes += hashes
        status, body = request("POST", f"/api/v1/decks/{slug}/participants", {"puzzle": dict(puzzle, number=number)})
        out.status = status
        if status == 201:
            out.credential = body["participant"]
            return out
        if status not in (409, 403):
            return out
    return out
