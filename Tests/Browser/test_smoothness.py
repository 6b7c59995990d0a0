"""Smoothness of a 120-move desktop drag: no layout during the drag (asserted); frame intervals and
pointermove handler time are measured and reported (artifacts/smoothness.txt), not asserted."""
import random

from deckkit import ARTIFACTS, TOP, Mouse, open_deck, percentile, top_box

MOVES = 120

PROBE = """() => {
  window.__frames = []; window.__handler = []; window.__on = true;
  const loop = t => { __frames.push(t); if (__on) requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  // Capture on window runs before the stack's listener, bubble on window after it.
  addEventListener('pointermove', e => { e.__t0 = performance.now(); }, true);
  addEventListener('pointermove', e => { if (e.__t0 !== undefined) __handler.push(performance.now() - e.__t0); });
}"""

FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r())))"


def metrics(cdp):
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


def test_drag_causes_no_layout(server, desktop):
    page = desktop
    open_deck(page, server)
    box = top_box(page)
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.45
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    mouse = Mouse(page)
    page.mouse.move(x0, y0)  # hover first, so entering the card is not part of the measurement
    page.evaluate(PROBE)
    page.evaluate(FRAMES)
    before = metrics(cdp)
    page.evaluate("() => { window.__f0 = __frames.length; }")

    # Out to 0.3 of the width (under the threshold) and most of the way back: 120 moves, ~12 ms apart.
    path = [0.3 * (i / 70) if i <= 70 else 0.3 * (1 - 0.8 * (i - 70) / 50) for i in range(1, MOVES + 1)]
    rng = random.Random(42)
    mouse.press(x0, y0)
    for i, k in enumerate(path, 1):
        mouse.move(x0 + box["width"] * k + rng.uniform(-1, 1), y0 + 8 * k + rng.uniform(-1.5, 1.5), 0.012 * i + rng.uniform(-0.003, 0.003))
    page.evaluate(FRAMES)
    after = metrics(cdp)
    dragged = page.eval_on_selector(TOP, "e => e.style.transform")
    mouse.up()
    page.evaluate("() => { window.__on = false; }")
    frames = page.evaluate("__frames.slice(__f0)")
    handler = page.evaluate("__handler")

    intervals = [b - a for a, b in zip(frames, frames[1:])]
    layout = after["LayoutCount"] - before["LayoutCount"]
    style = after["RecalcStyleCount"] - before["RecalcStyleCount"]
    report = (
        f"drag of {MOVES} moves: {len(handler)} pointermove events handled, {len(frames)} frames\n"
        f"LayoutCount delta {layout:g}, RecalcStyleCount delta {style:g}, "
        f"LayoutDuration delta {1000 * (after['LayoutDuration'] - before['LayoutDuration']):.2f} ms\n"
        f"frame interval ms: p50 {percentile(intervals, 50):.2f}  p99 {percentile(intervals, 99):.2f}  max {max(intervals or [0]):.2f}\n"
        f"pointermove handler ms: p50 {percentile(handler, 50):.3f}  p99 {percentile(handler, 99):.3f}  max {max(handler or [0]):.3f}\n"
    )
    print("\n" + report)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "smoothness.txt").write_text(report)

    assert "translate(" in dragged, "the card must have followed the drag"
    assert len(handler) >= 20, "the probe must have seen the drag's pointermoves"
    assert layout == 0, f"a drag must only change transform/opacity; it caused {layout:g} layouts"
