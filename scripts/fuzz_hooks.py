"""schemathesis hooks for scripts/fuzz-api.sh.

A client sends a fresh Idempotency-Key with each new request (that is what
the key is for); the fuzzer's generator would reuse simple values like "0"
across different requests, which the server rightly refuses (422
IDEMPOTENCY_KEY_REUSED). Valid keys are replaced by fresh UUIDs; invalid
ones are sent as generated, so their rejection is still tested.

A long poll (`GET /v1/games/{id}?wait_for_version=`) for a version that
never comes waits its whole `timeout`, 30 s unless asked: the fuzzer would
spend most of its run waiting, and give up after its own 10 s. Such polls
are sent with a timeout of at most 2 s (an invalid timeout is sent as
generated); everything else about them is as generated. The same for a
seek's long poll (`GET /v1/seeks/{id}?wait=`), whose seek the fuzzer never
pairs.

An event stream stays open until the client leaves; the fuzzer reads one
for a second at most (its first event ends it sooner), where it would
wait out its own 10 s timeout on every request to a stream that has
nothing more to say.

A board picture's body is checked to be the picture its media type says
(PNG's or GIF's signature), then handed to schema validation as the string
the document declares.
"""

import re
import uuid

import schemathesis

VALID_KEY = re.compile(r"^[!-~]{1,255}$")


def _seconds(value):
    """A query value as whole seconds, whether generated as a number or as
    its digits (the coverage phase sends both); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return None


@schemathesis.hook
def before_call(ctx, case, kwargs):
    if case.method.upper() == "GET" and case.path.endswith("/events"):
        kwargs["timeout"] = 1
    headers = case.headers or {}
    for name in list(headers):
        if name.lower() == "idempotency-key" and VALID_KEY.match(str(headers[name])):
            headers[name] = str(uuid.uuid4())
    query = case.query or {}
    if "wait_for_version" in query:
        timeout = query.get("timeout")
        seconds = _seconds(timeout)
        # An invalid timeout is left alone: it is answered 422 at once.
        if timeout is None or (seconds is not None and 2 < seconds <= 30):
            query["timeout"] = 2
        case.query = query
    # Only a seek's long poll has `wait`.
    wait = _seconds(query.get("wait"))
    if wait is not None and 2 < wait <= 30:
        query["wait"] = 2
        case.query = query
    return None


SIGNATURES = {"image/png": (b"\x89PNG\r\n\x1a\n",), "image/gif": (b"GIF87a", b"GIF89a")}


@schemathesis.deserializer("image/png", "image/gif")
def picture(ctx, response):
    media_type = response.headers.get("content-type", [""])
    media_type = (media_type[0] if isinstance(media_type, list) else media_type).split(";")[0].strip()
    signatures = SIGNATURES.get(media_type, ())
    if not any(response.content.startswith(s) for s in signatures):
        raise ValueError(f"a {media_type} response whose body does not begin with its signature")
    return response.content.decode("latin-1")
