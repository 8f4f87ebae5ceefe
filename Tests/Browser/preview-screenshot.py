#!/usr/bin/env python3
"""Opens a page in headless Chromium, waits until <body data-idle="true"> (the preview map of
`tilesync serve` drew everything) or a timeout, and saves a screenshot. Chromium is driven over
the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages ending in NUL on file
descriptors 3 and 4), so nothing beyond Python and Chromium is needed.

usage: preview-screenshot.py CHROMIUM URL OUT.png [SECONDS [EXPRESSION ...]]
Each EXPRESSION (JavaScript) is evaluated in the page once it is idle, after the screenshot.
prints one JSON line: {"idle": bool, "error": str|null, "seconds": float, "width": int, "height": int,
"colours": int (distinct RGB colours), "top_share": float (the share of pixels in the commonest colour),
"evaluated": [the value of each EXPRESSION, as a string]}
"""
import base64, collections, json, os, struct, subprocess, sys, tempfile, time, zlib

chromium, url, out = sys.argv[1], sys.argv[2], sys.argv[3]
limit = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
expressions = sys.argv[5:]
to_browser_read, to_browser_write = os.pipe()
from_browser_read, from_browser_write = os.pipe()
profile = tempfile.mkdtemp(prefix="tilesync-chromium-")


def child_setup():
    # Copies first: a pipe end may already be 3 or 4, and dup2 onto itself keeps close-on-exec.
    commands, answers = os.dup(to_browser_read), os.dup(from_browser_write)
    os.dup2(commands, 3)
    os.dup2(answers, 4)


browser = subprocess.Popen(
    [chromium, "--headless", "--no-sandbox", "--remote-debugging-pipe", "--use-angle=swiftshader",
     "--enable-unsafe-swiftshader", "--window-size=800,600", "--no-first-run", "--disable-extensions",
     "--user-data-dir=" + profile, "about:blank"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=child_setup, close_fds=False)
os.close(to_browser_read)
os.close(from_browser_write)
pending = b""
next_id = 0


def call(method, params=None, session=None):
    global pending, next_id
    next_id += 1
    message = {"id": next_id, "method": method, "params": params or {}}
    if session:
        message["sessionId"] = session
    os.write(to_browser_write, json.dumps(message).encode() + b"\0")
    while True:
        while b"\0" not in pending:
            chunk = os.read(from_browser_read, 1 << 20)
            if not chunk:
                raise SystemExit("chromium closed the DevTools pipe")
            pending += chunk
        raw, pending = pending.split(b"\0", 1)
        answer = json.loads(raw)
        if answer.get("id") == next_id:
            if "error" in answer:
                raise SystemExit(f"{method}: {answer['error']}")
            return answer.get("result", {})


def pixel_statistics(png):
    """Distinct colours and the commonest colour's share of an 8-bit RGB or RGBA PNG, not interlaced."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, data, width, height, colour_type = 8, b"", 0, 0, 0
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        chunk = png[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and colour_type in (2, 6) and interlace == 0, "unexpected PNG layout"
        elif kind == b"IDAT":
            data += chunk
        at += 12 + length
    raw, step = zlib.decompress(data), 3 if colour_type == 2 else 4
    stride, previous, counts, at = width * step, bytearray(width * step), collections.Counter(), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if kind == 1: line[i] = (line[i] + left) & 255
            elif kind == 2: line[i] = (line[i] + up) & 255
            elif kind == 3: line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        counts.update(bytes(line[i:i + 3]) for i in range(0, stride, step))
        previous = line
    return width, height, len(counts), counts.most_common(1)[0][1] / (width * height)


started = time.time()
try:
    target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    call("Page.enable", session=session)
    call("Page.navigate", {"url": url}, session=session)
    idle, error = False, None
    while time.time() - started < limit:
        state = call("Runtime.evaluate", {"expression": "JSON.stringify([document.body && document.body.dataset.idle || null, document.body && document.body.dataset.error || null])",
                                          "returnByValue": True}, session=session)
        idle_value, error = json.loads(state.get("result", {}).get("value") or "[null, null]")
        if idle_value == "true":
            idle = True
            break
        time.sleep(0.2)
    shot = call("Page.captureScreenshot", {"format": "png"}, session=session)
    png = base64.b64decode(shot["data"])
    with open(out, "wb") as file:
        file.write(png)
    width, height, colours, top_share = pixel_statistics(png)
    evaluated = []
    for expression in expressions:
        value = call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, session=session)
        evaluated.append(str(value.get("result", {}).get("value", value.get("exceptionDetails", {}).get("text"))))
    print(json.dumps({"idle": idle, "error": error, "seconds": round(time.time() - started, 2), "width": width,
                      "height": height, "colours": colours, "top_share": round(top_share, 4), "evaluated": evaluated}))
finally:
    try:
        call("Browser.close")
    except BaseException:
        pass
    try:
        browser.wait(timeout=10)
    except subprocess.TimeoutExpired:
        browser.kill()
    subprocess.run(["rm", "-rf", profile])
