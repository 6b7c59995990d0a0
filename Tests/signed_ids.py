"""Participant ids as the test servers sign them: every suite starts `swipedeck serve` with
`--participant-secret PARTICIPANT_SECRET` and names participants with `pid("alice")`."""
import hashlib
import hmac
import re

PARTICIPANT_SECRET = "test-participant-secret-0123456789"


def pid(name):
    """The id the server signs for `name` (a readable body) with the test secret: the same
    HMAC-SHA256 as ParticipantSigner. Ids that are not well-formed bodies pass through unchanged
    (hostile tests send them on purpose)."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]{1,39}", name.replace("-", "_")):
        return name
    mac = hmac.new(PARTICIPANT_SECRET.encode(), ("participant:" + name).encode(), hashlib.sha256).hexdigest()[:24]
    return f"{name}-{mac}"
