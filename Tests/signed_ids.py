"""Participant credentials as the test servers sign them: every suite starts `swipedeck serve`
with `--participant-secret PARTICIPANT_SECRET` and names participants with `pid("alice")`."""
import hashlib
import hmac
import re

PARTICIPANT_SECRET = "test-participant-secret-0123456789"


def pid(name):
    """The credential the server signs for `name` (a readable body: a device credential without
    expiry) with the test secret: the same HMAC-SHA256 as ParticipantSigner. Ids that are not
    well-formed bodies pass through unchanged (hostile tests send them on purpose)."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]{1,39}", name.replace("-", "_")):
        return name
    mac = hmac.new(PARTICIPANT_SECRET.encode(), ("credential:" + name).encode(), hashlib.sha256).hexdigest()[:24]
    return f"{name}-{mac}"


def identity(name, deck_id):
    """The stored identity `pid(name)` acts as in deck `deck_id` (what exports and owners show)."""
    mac = hmac.new(PARTICIPANT_SECRET.encode(), f"identity:{deck_id}:{name}".encode(), hashlib.sha256).hexdigest()[:32]
    return "q" + mac
