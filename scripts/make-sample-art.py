#!/usr/bin/env python3
"""Generate the artwork of the bundled "Weekend getaways" sample deck.

Standard library only and deterministic: every card has a fixed seed, so two runs
write byte-identical files. Output, relative to the repository root:

    Public/img/sample/NN-slug.svg   one 600x800 portrait scene per card
    Public/img/sample/cover.svg     the deck cover (800x500)

The SVGs hold no text, fonts, scripts or external references (pages are served with a
strict Content-Security-Policy); internal `href="#id"` references only. Each file
stays under 12 KB.

Usage:
    python3 scripts/make-sample-art.py            # write the files
    python3 scripts/make-sample-art.py --check    # exit 1 if a file is missing or differs
    python3 scripts/make-sample-art.py --list     # print "NN-slug.svg  size" lines
"""
import math
import os
import random
import sys

W, H = 600, 800
MAX_BYTES = 12 * 1024
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "Public", "img", "sample")


# ---------------------------------------------------------------- formatting, colour

def n(v):
    """Integer coordinate."""
    v = int(round(v))
    return "0" if v == 0 else str(v)


def n1(v):
    """One decimal, no trailing zeros, no leading zero ('.5')."""
    s = f"{v:.1f}".rstrip("0").rstrip(".")
    if s in ("", "-0"):
        return "0"
    if s.startswith("0."):
        s = s[1:]
    elif s.startswith("-0."):
        s = "-" + s[2:]
    return s


def n2(v):
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    if s in ("", "-0"):
        return "0"
    return s[1:] if s.startswith("0.") else s


def rgb(h):
    h = h.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def hexc(c):
    return "#%02x%02x%02x" % tuple(max(0, min(255, int(round(x)))) for x in c)


def mix(a, b, t):
    A, B = rgb(a), rgb(b)
    return hexc(tuple(A[i] + (B[i] - A[i]) * t for i in range(3)))


# ---------------------------------------------------------------- geometry

def smooth_d(pts, t=1 / 6):
    """Catmull-Rom through pts as cubic Beziers."""
    out = [f"M{n(pts[0][0])} {n(pts[0][1])}C"]
    segs = []
    for i in range(len(pts) - 1):
        p0 = pts[max(i - 1, 0)]
        p1, p2 = pts[i], pts[i + 1]
        p3 = pts[min(i + 2, len(pts) - 1)]
        c1 = (p1[0] + (p2[0] - p0[0]) * t, p1[1] + (p2[1] - p0[1]) * t)
        c2 = (p2[0] - (p3[0] - p1[0]) * t, p2[1] - (p3[1] - p1[1]) * t)
        segs.append(" ".join(n(v) for v in (*c1, *c2, *p2)))
    return out[0] + " ".join(segs)


def poly_d(pts):
    return f"M{n(pts[0][0])} {n(pts[0][1])}L" + " ".join(f"{n(x)} {n(y)}" for x, y in pts[1:])


def closed(d, bottom=H + 10):
    return d + f"V{bottom}H-20Z"


def yat(pts, x):
    """Height of a ridge polyline at x (linear interpolation)."""
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x0 <= x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0 or 1)
    return pts[-1][1] if x > pts[-1][0] else pts[0][1]


# ---------------------------------------------------------------- the scene

class Scene:
    def __init__(self, seed, w=W, h=H):
        self.r = random.Random(seed)
        self.w, self.h = w, h
        self.defs = []
        self.out = []
        self.k = 0
        self.symbols = set()

    def uid(self, p="g"):
        self.k += 1
        return f"{p}{self.k}"

    def add(self, s):
        self.out.append(s)

    def _stops(self, stops):
        parts = []
        for i, s in enumerate(stops):
            if isinstance(s, str):
                s = (i / max(1, len(stops) - 1), s)
            off, col = s[0], s[1]
            op = f' stop-opacity="{n2(s[2])}"' if len(s) > 2 and s[2] != 1 else ""
            parts.append(f'<stop offset="{n2(off)}" stop-color="{col}"{op}/>')
        return "".join(parts)

    def lin(self, stops, x2=0, y2=1, x1=0, y1=0, user=None):
        """Linear gradient; vertical by default. user=(x1,y1,x2,y2) in user space."""
        i = self.uid()
        if user:
            a = f'x1="{n(user[0])}" y1="{n(user[1])}" x2="{n(user[2])}" y2="{n(user[3])}" gradientUnits="userSpaceOnUse"'
        else:
            a = " ".join(f'{k}="{n2(v)}"' for k, v, d in
                         (("x1", x1, 0), ("y1", y1, 0), ("x2", x2, 1), ("y2", y2, 0)) if v != d)
        self.defs.append(f'<linearGradient id="{i}" {a}>{self._stops(stops)}</linearGradient>')
        return f"url(#{i})"

    def rad(self, stops, cx=.5, cy=.5, r=.5, user=None):
        i = self.uid()
        if user:
            a = f'cx="{n(user[0])}" cy="{n(user[1])}" r="{n(user[2])}" gradientUnits="userSpaceOnUse"'
        else:
            a = " ".join(f'{k}="{n2(v)}"' for k, v in (("cx", cx), ("cy", cy), ("r", r)) if v != .5)
        self.defs.append(f'<radialGradient id="{i}" {a}>{self._stops(stops)}</radialGradient>')
        return f"url(#{i})"

    def blur(self, sd):
        i = self.uid("f")
        self.defs.append(f'<filter id="{i}" x="-50%" y="-50%" width="200%" height="200%">'
                         f'<feGaussianBlur stdDeviation="{n1(sd)}"/></filter>')
        return f"url(#{i})"

    def clip_rect(self, x, y, w, h):
        i = self.uid("c")
        self.defs.append(f'<clipPath id="{i}"><rect x="{n(x)}" y="{n(y)}" width="{n(w)}" height="{n(h)}"/></clipPath>')
        return f"url(#{i})"

    def clip_use(self, ref):
        i = self.uid("c")
        self.defs.append(f'<clipPath id="{i}"><use href="#{ref}"/></clipPath>')
        return f"url(#{i})"

    def symbol(self, name):
        if name not in self.symbols:
            self.symbols.add(name)
            self.defs.append(SYMBOLS[name])

    def svg(self):
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.w} {self.h}" '
                f'width="{self.w}" height="{self.h}" preserveAspectRatio="xMidYMid slice">'
                f'<defs>{"".join(self.defs)}</defs>{"".join(self.out)}</svg>\n')


# Reusable silhouettes (unit ~100 tall, base at y=0, centred on x=0); fill comes from <use>.
SYMBOLS = {
    "pine": '<path id="pine" d="M0-100L13-70H6L22-40H11L30-8H3V2H-3V-8H-30L-11-40H-22L-6-70H-13Z"/>',
    "fir": '<path id="fir" d="M0-100C4-80 12-62 10-58 16-44 24-30 20-26 28-16 34-8 26-6H3V2H-3V-6H-26C-34-8-28-16-20-26-24-30-16-44-10-58-12-62-4-80 0-100Z"/>',
    "tree": '<path id="tree" d="M-3 2V-24H3V2ZM0-30C-30-28-36-58-18-68-20-92 12-98 20-80 40-76 38-34 0-30Z"/>',
    "cypress": '<path id="cypress" d="M0-100C9-82 13-40 8-6H2V2H-2V-6H-8C-13-40-9-82 0-100Z"/>',
    "palm": '<g id="palm"><path d="M-3 0C-1-30 6-64 16-92L20-90C11-62 5-30 4 0Z"/>'
            '<path d="M18-92C4-104-18-104-34-88-16-96 2-96 18-90Z"/>'
            '<path d="M18-92C28-108 52-108 66-90 48-100 32-98 18-90Z"/>'
            '<path d="M18-92C2-92-14-78-18-58-6-74 6-84 18-89Z"/>'
            '<path d="M18-92C36-90 50-76 52-56 40-72 30-82 18-89Z"/>'
            '<path d="M18-92C16-112 28-122 40-124 28-114 24-104 20-91Z"/></g>',
    "cactus": '<path id="cactus" d="M0 0V-90M0-38H-16V-64M0-52H15V-76" fill="none" stroke-width="11" '
              'stroke-linecap="round" stroke-linejoin="round"/>',
    "bird": '<path id="bird" d="M-8 0Q-4-5 0 0Q4-5 8 0" fill="none" stroke-width="1.6" stroke-linecap="round"/>',
}


# ---------------------------------------------------------------- building blocks

def sky(sc, cols, offs=None, h=None):
    offs = offs or [i / (len(cols) - 1) for i in range(len(cols))]
    g = sc.lin(list(zip(offs, cols)))
    sc.add(f'<rect width="{sc.w}" height="{h or sc.h}" fill="{g}"/>')


def glow(sc, x, y, r, color, op=.6, mid=.35):
    g = sc.rad([(0, color, op), (mid, color, op * .45), (1, color, 0)])
    sc.add(f'<circle cx="{n(x)}" cy="{n(y)}" r="{n(r)}" fill="{g}"/>')


def sun(sc, x, y, r, core="#fff6e0", halo="#ffd9a0", halo_r=5, op=.65):
    glow(sc, x, y, r * halo_r, halo, op)
    sc.add(f'<circle cx="{n(x)}" cy="{n(y)}" r="{n(r)}" fill="{core}"/>')


def moon(sc, x, y, r, color="#f3efe0", halo="#c9d6ff", crescent=0.0, sky_col=None):
    glow(sc, x, y, r * 5, halo, .35)
    if crescent:
        m = sc.uid("m")
        sc.defs.append(f'<mask id="{m}"><rect width="{sc.w}" height="{sc.h}" fill="#fff"/>'
                       f'<circle cx="{n(x + r * crescent)}" cy="{n(y - r * .35)}" r="{n(r * .95)}"/></mask>')
        sc.add(f'<circle cx="{n(x)}" cy="{n(y)}" r="{n(r)}" fill="{color}" mask="url(#{m})"/>')
    else:
        sc.add(f'<circle cx="{n(x)}" cy="{n(y)}" r="{n(r)}" fill="{color}"/>')
        sc.add(f'<g fill="#b9b4a4" opacity=".35"><circle cx="{n(x - r * .3)}" cy="{n(y - r * .2)}" r="{n1(r * .22)}"/>'
               f'<circle cx="{n(x + r * .35)}" cy="{n(y + r * .25)}" r="{n1(r * .16)}"/>'
               f'<circle cx="{n(x + r * .1)}" cy="{n(y - r * .5)}" r="{n1(r * .1)}"/></g>')


def stars(sc, count, y0=0, y1=400, color="#fff", band=None):
    """Scattered stars in three brightness groups; band=(x0,y0,x1,y1,spread) concentrates
    them along a line (a milky way)."""
    r = sc.r
    groups = [[], [], []]
    for i in range(count):
        if band and i % 3:
            t = r.random()
            x = band[0] + (band[2] - band[0]) * t + r.gauss(0, band[4])
            y = band[1] + (band[3] - band[1]) * t + r.gauss(0, band[4])
        else:
            x, y = r.uniform(0, sc.w), r.uniform(y0, y1) ** 1.0
            y = y0 + (y1 - y0) * (r.random() ** 1.4)
        if not (0 <= x <= sc.w and y0 <= y <= y1):
            continue
        g = r.choices((0, 1, 2), (5, 3, 1))[0]
        rad = (.7, 1.1, 1.7)[g] * r.uniform(.8, 1.2)
        groups[g].append(f'<circle cx="{n(x)}" cy="{n(y)}" r="{n1(rad)}"/>')
    for g, items in enumerate(groups):
        if items:
            sc.add(f'<g fill="{color}" opacity="{(".45", ".7", ".95")[g]}">{"".join(items)}</g>')


def cumulus(sc, clouds, color="#fff", op=.9, shade=None):
    """clouds: (x, y, scale) -- puffy clouds with a flat base."""
    parts = []
    for x, y, s in clouds:
        r = sc.r
        d = f"M{n(x - 60 * s)} {n(y)}"
        bumps = [(-40, 22), (-12, 34), (20, 28), (44, 18)]
        for bx, br in bumps:
            br = br * s * r.uniform(.85, 1.15)
            cx = x + bx * s
            d += f"M{n(cx - br)} {n(y)}a{n(br)} {n(br)} 0 0 1 {n(2 * br)} 0Z"
        d += f"M{n(x - 62 * s)} {n(y)}h{n(124 * s)}a{n(6 * s)} {n(6 * s)} 0 0 1 0 {n(10 * s)}h{n(-124 * s)}a{n(6 * s)} {n(6 * s)} 0 0 1 0 {n(-10 * s)}Z"
        parts.append(d)
    sc.add(f'<path d="{"".join(parts)}" fill="{color}" opacity="{n2(op)}"/>')
    if shade:
        sub = "".join(f"M{n(x - 60 * s)} {n(y + 2 * s)}h{n(120 * s)}v{n(7 * s)}h{n(-120 * s)}Z" for x, y, s in clouds)
        sc.add(f'<path d="{sub}" fill="{shade}" opacity=".25"/>')


def streaks(sc, items, color="#fff", op=.5):
    """Long thin sunset clouds: (x, y, w, h)."""
    d = "".join(f"M{n(x)} {n(y)}h{n(w)}a{n1(h / 2)} {n1(h / 2)} 0 0 1 0 {n(h)}h{n(-w)}a{n1(h / 2)} {n1(h / 2)} 0 0 1 0 {n(-h)}Z"
                for x, y, w, h in items)
    sc.add(f'<path d="{d}" fill="{color}" opacity="{n2(op)}"/>')


def ridge(sc, base, amp, octaves=((1, 1), (2.2, .45), (4.7, .2)), step=30, peaks=(), jit=0, x0=-20, x1=None):
    r = sc.r
    x1 = sc.w + 20 if x1 is None else x1
    ph = [r.uniform(0, 6.283) for _ in octaves]
    xs = list(range(x0, x1 + 1, step))
    if xs[-1] != x1:
        xs.append(x1)
    xs = sorted(set(xs + [p[0] for p in peaks if x0 < p[0] < x1]))
    pts = []
    for x in xs:
        y = base
        for (fq, a), p in zip(octaves, ph):
            y -= amp * a * math.sin(x / sc.w * 6.283 * fq + p)
        top = 0
        for px, ph_, pw in peaks:
            top = max(top, ph_ * max(0.0, 1 - abs(x - px) / pw) ** 1.15)
        y -= top
        if jit and x not in [p[0] for p in peaks]:
            y += r.uniform(-jit, jit)
        pts.append((x, y))
    return pts


def shape(sc, d, fill):
    """A path kept in <defs> (no paint, so <use>s can restyle it) and drawn once with fill.
    Returns the id of the drawn copy; its outline is f"{id}d"."""
    i = sc.uid("L")
    sc.defs.append(f'<path id="{i}d" d="{d}"/>')
    sc.add(f'<use id="{i}" href="#{i}d" fill="{fill}"/>')
    return i


def layer(sc, pts, fill, smooth=True, op=None, keep=False, extra=""):
    d = closed(smooth_d(pts) if smooth else poly_d(pts))
    if keep:
        return shape(sc, d, fill)
    o = f' opacity="{n2(op)}"' if op is not None else ""
    sc.add(f'<path d="{d}" fill="{fill}"{o}{extra}/>')
    return None


def mountains(sc, base, peaks, fill, snow=0.0, snow_col="#f4f6fb", shade=.16, light=-1,
              step=14, jit=3, amp=8, shade_col="#000", keep=True):
    """Jagged range with snow caps and shaded flanks; returns (id of group, pts)."""
    r = sc.r
    pts = ridge(sc, base, amp, ((1, 1), (3.1, .5)), step=step, peaks=peaks, jit=jit)
    gid = sc.uid("G")
    body = sc.uid("B")
    parts = [f'<path id="{body}" d="{closed(poly_d(pts))}" fill="{fill}"/>']
    clip = sc.clip_use(body)
    inner = []
    for px, ph, pw in peaks:
        py = yat(pts, px)
        # shaded flank on the side away from the light
        sgn = -light
        d = (f"M{n(px)} {n(py)}L{n(px + sgn * pw * .28)} {n(py + ph * .35)} {n(px + sgn * pw * .18)} {n(py + ph * .6)} "
             f"{n(px + sgn * pw * .42)} {n(base + 40)} {n(px + sgn * pw * 1.2)} {n(base + 40)}Z")
        inner.append(f'<path d="{d}" fill="{shade_col}" opacity="{n2(shade)}"/>')
        if snow and ph > 60:
            depth = ph * snow
            half = pw * depth / ph * 1.5
            xs = [px - half + i * half / 6 for i in range(13)]
            pp = []
            for i, x in enumerate(xs):
                dd = depth * (r.uniform(.6, .95) if i % 2 else r.uniform(1.0, 1.45))
                pp.append((x, py + dd * (1 - .35 * abs(x - px) / half)))
            d = poly_d(pp) + f"L{n(px + half)} {n(py - 20)} {n(px - half)} {n(py - 20)}Z"
            inner.append(f'<path d="{d}" fill="{snow_col}" opacity=".92"/>')
    parts.append(f'<g clip-path="{clip}">{"".join(inner)}</g>')
    sc.add(f'<g id="{gid}">{"".join(parts)}</g>' if keep else "".join(parts))
    return gid, pts


def band(sc, y, h, color, op, ramp=False):
    """Horizontal mist: fades in and out (or only in, with ramp=True)."""
    stops = [(0, color, 0), (1, color, op)] if ramp else [(0, color, 0), (.5, color, op), (1, color, 0)]
    g = sc.lin(stops)
    sc.add(f'<rect y="{n(y)}" width="{sc.w}" height="{n(h)}" fill="{g}"/>')


def water(sc, y, top, bottom, y2=None):
    g = sc.lin([(0, top), (1, bottom)])
    sc.add(f'<rect y="{n(y)}" width="{sc.w}" height="{n((y2 or sc.h) - y)}" fill="{g}"/>')
    return sc.clip_rect(0, y, sc.w, (y2 or sc.h) - y)


def reflect(sc, ids, y, op, clip, tint=None):
    uses = "".join(f'<use href="#{i}"/>' for i in ids)
    sc.add(f'<g clip-path="{clip}" opacity="{n2(op)}"><g transform="matrix(1 0 0 -1 0 {n(2 * y)})">{uses}</g></g>')
    if tint:
        sc.add(f'<rect y="{n(y)}" width="{sc.w}" height="{n(sc.h - y)}" fill="{tint[0]}" opacity="{n2(tint[1])}"/>')


def shimmer(sc, y0, y1, color="#fff", count=24, op=.35, xr=(0, 600), wmax=70):
    r = sc.r
    d = []
    for _ in range(count):
        t = r.random()
        y = y0 + (y1 - y0) * t * t
        w = r.uniform(8, wmax) * (.4 + t)
        x = r.uniform(*xr)
        d.append(f"M{n(x)} {n(y)}h{n(w)}")
    sc.add(f'<path d="{"".join(d)}" stroke="{color}" stroke-width="2" stroke-linecap="round" opacity="{n2(op)}"/>')


def sun_path(sc, x, y0, y1, color, op=.7, width=70):
    r = sc.r
    d = []
    y = y0 + 3
    while y < y1:
        t = (y - y0) / (y1 - y0)
        w = width * (.35 + t) * r.uniform(.4, 1.1)
        d.append(f"M{n(x - w / 2 + r.uniform(-6, 6))} {n(y)}h{n(w)}")
        y += 5 + 14 * t
    sc.add(f'<path d="{"".join(d)}" stroke="{color}" stroke-width="2.5" stroke-linecap="round" opacity="{n2(op)}"/>')


def place(sc, kind, items, fill, op=None, stroke=False):
    """items: (x, y, scale) or (x, y, sx, sy)."""
    sc.symbol(kind)
    uses = []
    for it in items:
        x, y = it[0], it[1]
        s = f"{n2(it[2])}" if len(it) == 3 else f"{n2(it[2])} {n2(it[3])}"
        uses.append(f'<use href="#{kind}" transform="translate({n(x)} {n(y)})scale({s})"/>')
    paint = f'stroke="{fill}"' if stroke else f'fill="{fill}"'
    o = f' opacity="{n2(op)}"' if op is not None else ""
    sc.add(f'<g {paint}{o}>{"".join(uses)}</g>')


def forest(sc, pts, kind, fill, x0=-20, x1=620, gap=(10, 22), size=(.5, .9), sink=6, op=None):
    r = sc.r
    items = []
    x = x0 + r.uniform(0, gap[1])
    while x < x1:
        s = r.uniform(*size)
        items.append((x, yat(pts, x) + sink, s * r.uniform(.85, 1.1), s))
        x += r.uniform(*gap)
    place(sc, kind, items, fill, op)


def birds(sc, items, color, op=.8):
    place(sc, "bird", items, color, op, stroke=True)


def vignette(sc, op=.38, cy=.42):
    g = sc.rad([(.55, "#000", 0), (1, "#000", op)], cy=cy, r=.78)
    sc.add(f'<rect width="{sc.w}" height="{sc.h}" fill="{g}"/>')


def houses(sc, ground, x0, x1, body, roof, win, lit=.5, hmin=40, hmax=90, wmin=28, wmax=52,
           facades=None, spires=(), win_op=1.0, gid=False):
    """A row of gabled houses standing on y=ground(x). facades: list of colours to cycle."""
    r = sc.r
    bodies, roofs, wins = [], [], []
    colored = []
    x = x0
    i = 0
    while x < x1:
        w = r.uniform(wmin, wmax)
        h = r.uniform(hmin, hmax)
        gy = ground(x + w / 2)
        top = gy - h
        rh = w * r.uniform(.35, .55)
        rect = f"M{n(x)} {n(gy + 4)}V{n(top)}H{n(x + w)}V{n(gy + 4)}Z"
        if facades:
            colored.append(f'<path d="{rect}" fill="{facades[i % len(facades)]}"/>')
        else:
            bodies.append(rect)
        if r.random() < .8:
            roofs.append(f"M{n(x - 3)} {n(top + 1)}L{n(x + w / 2)} {n(top - rh)} {n(x + w + 3)} {n(top + 1)}Z")
        else:
            roofs.append(f"M{n(x - 2)} {n(top)}h{n(w + 4)}v-5h{n(-w - 4)}Z")
        cols = max(1, int(w // 14))
        rows = max(1, int((h - 8) // 18))
        ww = 6
        for c in range(cols):
            for rr in range(rows):
                if r.random() < lit:
                    wx = x + (w - cols * 14 + 8) / 2 + c * 14
                    wy = top + 8 + rr * 18
                    wins.append(f"M{n(wx)} {n(wy)}h{ww}v9h-{ww}Z")
        x += w + r.uniform(-4, 3)
        i += 1
    for sx, sw, sh in spires:
        gy = ground(sx)
        bodies.append(f"M{n(sx - sw / 2)} {n(gy + 4)}V{n(gy - sh)}H{n(sx + sw / 2)}V{n(gy + 4)}Z")
        roofs.append(f"M{n(sx - sw / 2 - 3)} {n(gy - sh + 1)}L{n(sx)} {n(gy - sh - sw * 1.9)} {n(sx + sw / 2 + 3)} {n(gy - sh + 1)}Z")
        wins.append(f"M{n(sx - 4)} {n(gy - sh + 14)}h8v14h-8Z")
    first = len(sc.out)
    sc.add("".join(colored))
    if bodies:
        sc.add(f'<path d="{"".join(bodies)}" fill="{body}"/>')
    sc.add(f'<path d="{"".join(roofs)}" fill="{roof}"/>')
    if wins:
        o = f' opacity="{n2(win_op)}"' if win_op != 1 else ""
        sc.add(f'<path d="{"".join(wins)}" fill="{win}"{o}/>')
    if gid:
        i = sc.uid("H")
        inner = "".join(sc.out[first:])
        del sc.out[first:]
        sc.add(f'<g id="{i}">{inner}</g>')
        return i


def cabin(sc, x, y, s, body, roof, win, glow_col=None):
    if glow_col:
        glow(sc, x, y - 20 * s, 70 * s, glow_col, .45)
    sc.add(f'<path d="M{n(x - 30 * s)} {n(y)}V{n(y - 30 * s)}L{n(x)} {n(y - 52 * s)} {n(x + 30 * s)} {n(y - 30 * s)}V{n(y)}Z" fill="{body}"/>'
           f'<path d="M{n(x - 36 * s)} {n(y - 27 * s)}L{n(x)} {n(y - 56 * s)} {n(x + 36 * s)} {n(y - 27 * s)}" fill="none" stroke="{roof}" stroke-width="{n1(6 * s)}" stroke-linejoin="round"/>'
           f'<path d="M{n(x + 14 * s)} {n(y - 44 * s)}v-14h{n(8 * s)}v20Z" fill="{roof}"/>'
           f'<path d="M{n(x - 18 * s)} {n(y - 24 * s)}h{n(12 * s)}v{n(11 * s)}h{n(-12 * s)}ZM{n(x + 6 * s)} {n(y - 24 * s)}h{n(12 * s)}v{n(11 * s)}h{n(-12 * s)}Z" fill="{win}"/>')


def boat(sc, x, y, s, hull, sail, sail2=None):
    sc.add(f'<path d="M{n(x - 26 * s)} {n(y - 8 * s)}H{n(x + 28 * s)}L{n(x + 18 * s)} {n(y)}H{n(x - 18 * s)}Z" fill="{hull}"/>'
           f'<path d="M{n(x)} {n(y - 11 * s)}V{n(y - 62 * s)}L{n(x + 24 * s)} {n(y - 11 * s)}Z" fill="{sail}"/>'
           f'<path d="M{n(x - 3 * s)} {n(y - 11 * s)}V{n(y - 50 * s)}L{n(x - 20 * s)} {n(y - 11 * s)}Z" fill="{sail2 or sail}" opacity=".85"/>')


def rays(sc, x, y, angles, length, color, op=.18):
    g = sc.rad([(0, color, op), (1, color, 0)], user=(x, y, length))
    d = []
    for a0, a1 in angles:
        p0 = (x + math.cos(a0) * length, y + math.sin(a0) * length)
        p1 = (x + math.cos(a1) * length, y + math.sin(a1) * length)
        d.append(f"M{n(x)} {n(y)}L{n(p0[0])} {n(p0[1])} {n(p1[0])} {n(p1[1])}Z")
    sc.add(f'<path d="{"".join(d)}" fill="{g}"/>')


def rows_on(sc, body_id, dys, color, widths, dash=None, op=1.0):
    """Contour rows (vines, lavender, terraces): the hill's own outline shifted down,
    stroked, clipped to the hill."""
    clip = sc.clip_use(body_id + "d")
    uses = []
    for dy, sw in zip(dys, widths):
        uses.append(f'<use href="#{body_id}d" transform="translate(0 {n(dy)})" stroke-width="{n1(sw)}"/>')
    da = f' stroke-dasharray="{dash}"' if dash else ""
    sc.add(f'<g clip-path="{clip}" fill="none" stroke="{color}" opacity="{n2(op)}"{da}>{"".join(uses)}</g>')


# ---------------------------------------------------------------- the 24 scenes

def s_mirror_lake(sc):
    sky(sc, ["#2f3a6b", "#6d6398", "#d994a3", "#f9cfa4"], [0, .3, .5, .62])
    sun(sc, 400, 372, 24, "#fff3df", "#ffc9a2", 6)
    streaks(sc, [(40, 140, 220, 10), (120, 160, 160, 7), (330, 96, 240, 9), (420, 118, 150, 6)], "#f6c3c0", .45)
    g1, _ = mountains(sc, 470, [(150, 230, 190), (330, 290, 200), (520, 200, 160)], "#8a7eae", snow=.3, light=1, shade=.14)
    band(sc, 380, 110, "#f3b7b2", .35, ramp=True)
    g2, _ = mountains(sc, 478, [(40, 120, 140), (560, 150, 170)], "#5d5a8c", light=1, shade=.18, jit=4)
    clip = water(sc, 478, "#d6a0ad", "#2f3561")
    reflect(sc, [g1, g2], 478, .5, clip, ("#2f3561", .15))
    sun_path(sc, 400, 480, 640, "#ffe2c4", .55, 60)
    shimmer(sc, 485, 700, "#ffe3d8", 22, .3)
    shore = ridge(sc, 700, 40, ((.7, 1), (2, .3)), step=40)
    shore = [(x, y - max(0, 220 - x) * .9) for x, y in shore]
    layer(sc, shore, "#262a4f")
    forest(sc, shore, "pine", "#1c1f3d", -20, 260, (10, 20), (.7, 1.3), 10)
    rt = [(x, 760 + 20 * math.sin(x / 90)) for x in range(-20, 641, 40)]
    layer(sc, rt, "#181a33")
    forest(sc, [(x, y) for x, y in rt], "fir", "#131528", 380, 640, (12, 24), (.9, 1.6), 10)
    vignette(sc)


def s_saffron_dunes(sc):
    sky(sc, ["#3b1d4a", "#9a3b5a", "#ea6d4a", "#f9b25e", "#fde3a1"], [0, .28, .48, .6, .68])
    sun(sc, 300, 520, 58, "#fff0c8", "#ffb36a", 4, .7)
    streaks(sc, [(20, 200, 260, 9), (300, 170, 280, 12), (380, 250, 200, 6), (60, 300, 180, 5)], "#ffb486", .5)
    cols = ["#e8945a", "#d4743f", "#b95a31", "#8e3f22"]
    bases = [530, 600, 680, 770]
    for i, (b, c) in enumerate(zip(bases, cols)):
        pts = ridge(sc, b, 28 + i * 10, ((.8, 1), (1.9, .35)), step=40)
        g = sc.lin([(0, mix(c, "#ffd08a", .25)), (1, mix(c, "#3a1520", .35))], x2=1, y2=0)
        layer(sc, pts, g)
        if i:
            r = sc.r
            d = "".join(f"M{n(x)} {n(yat(pts, x) + 14 + k * 16)}q30 -5 60 0" for k in range(3) for x in [r.uniform(40, 520)])
            sc.add(f'<path d="{d}" fill="none" stroke="#fcd9a6" stroke-width="1.5" opacity=".35"/>')
    place(sc, "cactus", [(96, 598, .45), (470, 686, .55)], "#5e2a1b")
    birds(sc, [(380, 300, 1.2), (402, 290, .9), (360, 312, .8)], "#4a1d2c")
    vignette(sc, .42)


def s_aurora_fjord(sc):
    sky(sc, ["#020611", "#061a2e", "#0b2f40", "#144a52"], [0, .35, .55, .68])
    stars(sc, 90, 0, 420)
    blur = sc.blur(7)
    gid = sc.uid("A")
    bands = []
    r = sc.r
    for k, (y0, amp, th, col, op) in enumerate([(160, 50, 140, "#5cf2b0", .7), (230, 40, 110, "#3fd6c3", .55),
                                                 (120, 60, 90, "#b48cff", .35)]):
        ph = r.uniform(0, 6)
        top = [(x, y0 + amp * math.sin(x / 150 + ph) + 18 * math.sin(x / 47 + ph * 2)) for x in range(-40, 661, 50)]
        bot = [(x, y + th * (.7 + .3 * math.sin(x / 90 + ph))) for x, y in reversed(top)]
        g = sc.lin([(0, col, 0), (.75, col, op), (1, "#ffffff", op * .6)])
        bands.append(f'<path d="{smooth_d(top)}L{smooth_d(bot)[1:]}Z" fill="{g}"/>')
    sc.add(f'<g id="{gid}" filter="{blur}">{"".join(bands)}</g>')
    g1, _ = mountains(sc, 500, [(90, 260, 170), (250, 180, 140), (520, 300, 200)], "#0e2230", snow=.22,
                      snow_col="#9fc7cf", light=-1, shade=.25)
    clip = water(sc, 500, "#0c2a36", "#04101a")
    reflect(sc, [gid, g1], 500, .55, clip)
    shimmer(sc, 505, 660, "#6ee8c4", 20, .22)
    shore = [(x, 640 + 18 * math.sin(x / 70) - max(0, x - 320) * .45) for x in range(-20, 641, 30)]
    layer(sc, shore, "#071520")
    houses(sc, lambda x: yat(shore, x), 360, 470, "#3a1c22", "#1b0f14", "#ffce7a", .45, 24, 36, 26, 34)
    glow(sc, 415, 560, 80, "#ffb35c", .18)
    forest(sc, shore, "pine", "#040d15", -20, 330, (12, 22), (.6, 1.1), 12)
    layer(sc, [(x, 760 + 10 * math.sin(x / 50)) for x in range(-20, 641, 40)], "#030a10")
    vignette(sc, .45)


def s_coral_key(sc):
    sky(sc, ["#2a8fd6", "#67b9ee", "#bfe4f7", "#e9f7fb"], [0, .3, .52, .58])
    sun(sc, 470, 120, 34, "#fffdf3", "#fff3c4", 4, .55)
    cumulus(sc, [(130, 190, 1.1), (430, 260, .8), (300, 330, .6)], "#fff", .95, "#b7d6ec")
    water(sc, 460, "#3cb7c9", "#0b6b8c")
    band(sc, 460, 24, "#e9fbff", .5)
    g = sc.lin([(0, "#7ee3d6"), (1, "#2cbfc0", 0)])
    sc.add(f'<ellipse cx="300" cy="560" rx="330" ry="78" fill="{g}"/>')
    isl = [(x, 560 - 42 * math.exp(-((x - 300) / 150) ** 2) - 14 * math.exp(-((x - 220) / 60) ** 2)) for x in range(60, 541, 30)]
    sc.add(f'<path d="{smooth_d(isl)}Z" fill="#f3dfae"/>')
    hill = [(x, 552 - 70 * math.exp(-((x - 330) / 90) ** 2) - 30 * math.exp(-((x - 240) / 50) ** 2)) for x in range(150, 501, 25)]
    sc.add(f'<path d="{smooth_d(hill)}Z" fill="#3f9a58"/>')
    place(sc, "palm", [(190, 548, .9), (236, 546, 1.2), (410, 548, -1.05, 1.05), (452, 550, -.8, .8)], "#1f5a39")
    shimmer(sc, 590, 760, "#dffaff", 26, .45)
    boat(sc, 110, 640, .9, "#f4f1ea", "#ffffff", "#ffd9a8")
    birds(sc, [(350, 180, 1), (372, 170, .8)], "#2d5573")
    vignette(sc, .28)


def s_ember_canyon(sc):
    sky(sc, ["#4a6fa8", "#d99a7a", "#f7c98a", "#fbe3b0"], [0, .38, .52, .6])
    sun(sc, 150, 400, 30, "#fff4d8", "#ffcf8a", 5, .6)
    streaks(sc, [(300, 170, 220, 8), (380, 196, 160, 6)], "#ffd9b0", .45)
    r = sc.r

    def mesa(base, tops):
        """Flat tops, a steep cliff band, then a concave talus foot."""
        pts = [(-40, base)]
        for x0, x1, top in tops:
            cliff = (base - top) * .45
            pts += [(x0 - 70, base), (x0 - 34, base - cliff * .35), (x0 - 16, top + cliff), (x0 - 6, top + 4),
                    (x0, top), ((x0 + x1) / 2, top + r.uniform(-3, 3)), (x1, top),
                    (x1 + 6, top + 4), (x1 + 16, top + cliff), (x1 + 34, base - cliff * .35), (x1 + 70, base)]
        pts.append((640, base))
        return pts

    specs = [(470, [(60, 190, 380), (350, 540, 350)], "#d9a083", .5),
             (560, [(-60, 110, 430), (250, 330, 415), (470, 700, 400)], "#c27453", .3),
             (660, [(150, 290, 560), (440, 720, 540)], "#a4533a", .0)]
    for base, tops, col, haze in specs:
        i = shape(sc, closed(smooth_d(mesa(base, tops), .12)), col)
        rows_on(sc, i, [12, 22, 40, 60], mix(col, "#3a150c", .35), [2, 4, 2, 3], op=.35)
        rows_on(sc, i, [-2], mix(col, "#fff2d0", .4), [3], op=.6)
        if haze:
            band(sc, base - 110, 150, "#f7c98a", haze)
    floor = [(x, 712 + 18 * math.sin(x / 70 + 1)) for x in range(-20, 641, 30)]
    layer(sc, floor, "#7a3622")
    sc.add('<path d="M230 810C290 770 370 756 340 728 322 714 332 706 350 702 372 712 380 730 396 752 420 780 446 800 470 810Z" fill="#5bb5b6" opacity=".9"/>'
           '<path d="M350 706C360 712 368 724 372 736" fill="none" stroke="#e6fbf6" stroke-width="2" opacity=".6"/>')
    place(sc, "tree", [(x, yat(floor, x) + 6, r.uniform(.3, .45)) for x in (40, 70, 130, 480, 520, 580)], "#4f2518")
    place(sc, "cactus", [(180, yat(floor, 180) + 8, .5)], "#4f2518")
    birds(sc, [(420, 250, 1.1), (445, 238, .9)], "#5a2a22")
    vignette(sc, .4)


def s_valmora_vineyards(sc):
    sky(sc, ["#6aa6d8", "#b9d6e6", "#f6dcb0", "#fbe8c6"], [0, .35, .55, .62])
    sun(sc, 470, 380, 26, "#fff8e6", "#ffe0a6", 5, .55)
    cumulus(sc, [(140, 160, .8), (470, 220, .5)], "#fff", .8)
    far = ridge(sc, 440, 26, ((.7, 1), (1.8, .4)), step=40)
    layer(sc, far, "#a9b9a7")
    band(sc, 400, 80, "#f6e2bd", .5, ramp=True)
    mid = ridge(sc, 500, 30, ((.9, 1), (2.1, .3)), step=40)
    i = layer(sc, mid, "#9fb868", keep=True)
    rows_on(sc, i, [8 + k * 9 for k in range(8)], "#5d7a35", [2 + k * .3 for k in range(8)], "3 2")
    place(sc, "cypress", [(x, yat(mid, x) + 4, .5) for x in (60, 78, 96, 500, 518)], "#3e5a2b")
    houses(sc, lambda x: yat(mid, x), 310, 380, "#efd6ad", "#c0623d", "#8e6a45", .6, 26, 34, 30, 40)
    near = ridge(sc, 620, 50, ((.6, 1), (1.4, .3)), step=40)
    i = layer(sc, near, "#88a84f", keep=True)
    rows_on(sc, i, [12 + k * k * 2.6 + k * 8 for k in range(13)], "#3f5e25", [2.5 + k * 1.1 for k in range(13)], "7 4")
    place(sc, "cypress", [(x, yat(near, x) + 6, 1.4) for x in (520, 556)], "#2f4a20")
    vignette(sc, .3)


def s_old_town(sc):
    sky(sc, ["#14193a", "#363a70", "#8a5b8a", "#e99a7c"], [0, .3, .52, .66])
    stars(sc, 40, 0, 220)
    moon(sc, 110, 130, 20, "#fff4dc", "#ffd9b0", crescent=.45)
    far = lambda x: 470 - 20 * math.sin(x / 100)
    houses(sc, far, -10, 620, "#4a3d6b", "#3d3260", "#ffcf86", .25, 50, 120, 30, 50, spires=[(180, 22, 150), (470, 18, 110)], win_op=.8)
    band(sc, 380, 120, "#d98e86", .25, ramp=True)
    gnd = lambda x: 556
    row = houses(sc, gnd, -10, 620, "#2a2346", "#1d1733", "#ffc46b", .5, 60, 140, 34, 60, gid=True)
    clip = water(sc, 566, "#2e2a58", "#110f24")
    reflect(sc, [row], 566, .4, clip)
    sc.add('<path d="M-20 560H620V570H-20Z" fill="#1d1733"/>')
    shimmer(sc, 574, 760, "#ffcf86", 34, .4, wmax=34)
    shimmer(sc, 580, 760, "#a9a0e0", 16, .25)
    boat(sc, 440, 700, .8, "#1d1733", "#3d3260")
    vignette(sc, .45)


def s_fernhollow(sc):
    sky(sc, ["#a8c6c2", "#d6e4d8", "#f2efdc"], [0, .45, .7])
    sun(sc, 430, 170, 40, "#fffbe8", "#fff3c8", 4, .7)
    cols = ["#a9c3b4", "#86a896", "#5f8676", "#3d6455", "#22443a"]
    for k, c in enumerate(cols):
        base = 360 + k * 95
        pts = ridge(sc, base, 14 + k * 6, ((.6, 1), (1.7, .4)), step=40)
        layer(sc, pts, c)
        forest(sc, pts, "fir" if k % 2 else "pine", c, -20, 620, (14 + k * 6, 24 + k * 8), (.55 + k * .25, .9 + k * .35), 14)
        if k < 4:
            band(sc, base - 70, 110, "#f2efdc", .5 - k * .06, ramp=True)
    rays(sc, 430, 170, [(1.6, 1.68), (1.78, 1.84), (1.95, 2.05), (2.15, 2.2), (2.3, 2.4)], 760, "#fffbe0", .28)
    vignette(sc, .3)


def s_gullcliff(sc):
    sky(sc, ["#4f8fc9", "#8ebfe3", "#d7ecf5"], [0, .4, .55])
    cumulus(sc, [(420, 150, 1), (150, 250, .7)], "#fff", .9, "#9fbfd8")
    water(sc, 420, "#5fa7c9", "#1f5f86")
    shimmer(sc, 430, 780, "#e8f7ff", 30, .4)
    cliff = [(-20, 300), (60, 296), (140, 306), (200, 318), (230, 340), (250, 400), (262, 470), (300, 560), (330, 640), (360, 720), (380, 810)]
    i = shape(sc, f"{poly_d(cliff)}H-20Z", "#c9b28c")
    rows_on(sc, i, [20, 40, 70, 100, 140], "#8f7a5c", [3, 2, 3, 2, 3], op=.45)
    sc.add('<path d="M-20 292C40 280 120 286 210 312 180 314 120 308 60 306 20 306 0 304-20 304Z" fill="#7fae5a"/>')
    sc.add('<path d="M-20 300C60 290 150 300 214 318L226 332C160 318 80 312-20 316Z" fill="#5d8e45"/>')
    far = [(x, 430 - 36 * math.exp(-((x - 520) / 70) ** 2)) for x in range(380, 641, 20)]
    sc.add(f'<path d="{smooth_d(far)}V430Z" fill="#7d9bb0"/>')
    foam = "M262 470C280 480 300 470 312 484M300 560C320 572 340 562 352 576M330 640C350 652 372 640 388 654M360 720C382 732 404 720 420 736"
    sc.add(f'<path d="{foam}" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" opacity=".8"/>')
    birds(sc, [(420, 300, 1.4), (460, 330, 1), (380, 340, .8), (500, 280, .7)], "#34556e")
    boat(sc, 500, 560, .7, "#f7f4ec", "#fff", "#e8e2d2")
    vignette(sc, .28)


def s_glacier_hut(sc):
    sky(sc, ["#050a1f", "#0f1d44", "#233a6d", "#3a5588"], [0, .35, .55, .65])
    stars(sc, 120, 0, 420)
    moon(sc, 430, 150, 34)
    g1, pts = mountains(sc, 520, [(120, 320, 200), (360, 250, 170), (560, 220, 150)], "#3b5284", snow=.45,
                        snow_col="#dfe8ff", light=1, shade=.22)
    band(sc, 420, 120, "#9fb5e8", .18, ramp=True)
    near = ridge(sc, 640, 40, ((.8, 1), (2, .3)), step=40)
    near = [(x, y - max(0, 300 - abs(x - 300)) * .25) for x, y in near]
    layer(sc, near, "#dce6fb")
    g = sc.lin([(0, "#fff", .0), (1, "#9fb4de", .6)])
    layer(sc, near, g)
    cabin(sc, 300, yat(near, 300) + 6, 1.1, "#4a3128", "#2a1b16", "#ffd27a", "#ffb85c")
    forest(sc, near, "fir", "#1d2b4a", 400, 620, (16, 30), (.5, .9), 8)
    forest(sc, near, "fir", "#1d2b4a", -20, 170, (16, 30), (.5, .9), 8)
    vignette(sc, .42)


def s_lavender(sc):
    sky(sc, ["#4d4f96", "#a57ab0", "#f0a8a0", "#fbd0a2"], [0, .3, .5, .6])
    sun(sc, 300, 440, 40, "#fff1d8", "#ffc8a0", 4, .6)
    streaks(sc, [(60, 220, 200, 8), (330, 190, 230, 10), (200, 270, 160, 6)], "#ffd0c0", .4)
    far = ridge(sc, 470, 18, ((.8, 1), (2, .4)), step=40)
    layer(sc, far, "#8a77a8")
    band(sc, 420, 70, "#f0b6aa", .45, ramp=True)
    field = [(x, 500 + 6 * math.sin(x / 120)) for x in range(-20, 641, 40)]
    i = layer(sc, field, "#55704a", keep=True)
    dys = [4 + k * 3 + k * k * 1.7 for k in range(19)]
    rows_on(sc, i, dys, "#7b55c0", [2.4 + k * 1.5 for k in range(19)])
    rows_on(sc, i, [d - 1 - k * .4 for k, d in enumerate(dys)], "#b596ec", [1 + k * .5 for k in range(19)], "3 4")
    place(sc, "tree", [(150, 506, .6)], "#2f3d2a")
    houses(sc, lambda x: 504, 420, 480, "#efd8b5", "#a8563a", "#7d5a3d", .5, 26, 30, 26, 30)
    birds(sc, [(390, 330, 1), (412, 320, .8)], "#4e3a5e")
    vignette(sc, .35)


def s_meadowbrook(sc):
    sky(sc, ["#3f9be0", "#86c5ef", "#d6eefa"], [0, .4, .6])
    sun(sc, 120, 110, 30, "#fffef4", "#fff5c8", 4, .55)
    cumulus(sc, [(380, 150, 1.2), (180, 260, .8), (520, 300, .6)], "#fff", .95, "#a9cce6")
    cols = ["#9ccf85", "#7fbf5e", "#62a847", "#4a8f37"]
    bases = [430, 500, 590, 700]
    for k, (b, c) in enumerate(zip(bases, cols)):
        pts = ridge(sc, b, 26 + k * 8, ((.7, 1), (1.6, .4)), step=40)
        layer(sc, pts, c)
        if k == 1:
            forest(sc, pts, "tree", "#3f7a32", 60, 260, (18, 40), (.35, .5), 6)
        if k == 2:
            sc.add(f'<path d="M330 {n(yat(pts, 330) + 4)}C300 640 420 690 350 810H430C470 700 360 660 350 {n(yat(pts, 350) + 4)}Z" fill="#e9dcb0" opacity=".85"/>')
            forest(sc, pts, "tree", "#2f6a27", 440, 620, (24, 40), (.6, .8), 6)
        if k == 0:
            houses(sc, lambda x: yat(pts, x), 400, 450, "#f7f0e0", "#c4553a", "#5c7da0", .6, 22, 28, 24, 30)
    r = sc.r
    fl = "".join(f'<circle cx="{n(r.uniform(0, 600))}" cy="{n(r.uniform(720, 800))}" r="{n1(r.uniform(2, 4))}"/>' for _ in range(26))
    sc.add(f'<g fill="#fff6c8">{fl}</g>')
    vignette(sc, .25)


def s_lantern_point(sc):
    sky(sc, ["#24204a", "#6b2f63", "#d6574f", "#f7a35c", "#fddc94"], [0, .25, .45, .55, .62])
    sun(sc, 180, 500, 44, "#fff0c6", "#ffb36a", 4, .7)
    streaks(sc, [(300, 260, 260, 10), (380, 290, 200, 7), (20, 330, 220, 8)], "#ffb07c", .5)
    clip = water(sc, 500, "#e98a5e", "#2a1e45")
    sun_path(sc, 180, 502, 760, "#ffd59a", .6, 90)
    shimmer(sc, 510, 780, "#ffc59a", 26, .3)
    rock = [(300, 810), (330, 560), (380, 520), (440, 500), (520, 496), (600, 506), (620, 520), (620, 810)]
    sc.add(f'<path d="{poly_d(rock)}Z" fill="#2a1a33"/>')
    x, y = 470, 500
    sc.add(f'<path d="M{x - 20} {y}L{x - 13} {y - 150}H{x + 13}L{x + 20} {y}Z" fill="#f3ece2"/>')
    sc.add(f'<path d="M{x - 18} {y - 30}h36l-1-25h-34ZM{x - 16} {y - 85}h32l-1-25h-30Z" fill="#c8443b"/>')
    sc.add(f'<path d="M{x - 22} {y - 150}h44v-8h-44ZM{x - 12} {y - 158}v-22h24v22Z" fill="#2a1a33"/>')
    sc.add(f'<path d="M{x - 9} {y - 178}h18v-18h-18Z" fill="#ffe9a8"/><path d="M{x - 14} {y - 196}L{x} {y - 212} {x + 14} {y - 196}Z" fill="#2a1a33"/>')
    g = sc.lin([(0, "#ffe9a8", .55), (1, "#ffe9a8", 0)], x1=1, x2=0)
    sc.add(f'<path d="M{x} {y - 187}L40 {y - 260}L40 {y - 150}Z" fill="{g}"/>')
    glow(sc, x, y - 187, 60, "#fff2c0", .7)
    birds(sc, [(120, 300, 1), (146, 288, .8), (100, 320, .7)], "#3a1f3a")
    vignette(sc, .4)


def s_cinder_isle(sc):
    sky(sc, ["#1c1536", "#4d2a55", "#a5486a", "#e98a6a"], [0, .35, .56, .64])
    stars(sc, 40, 0, 200)
    blur = sc.blur(10)
    r = sc.r
    puffs = "".join(f'<circle cx="{n(300 + k * 22 + r.uniform(-10, 10))}" cy="{n(250 - k * 36)}" r="{n(24 + k * 9)}"/>' for k in range(7))
    sc.add(f'<g fill="#6a5268" opacity=".6" filter="{blur}">{puffs}</g>')
    glow(sc, 300, 300, 160, "#ff7a3d", .45)
    clip = water(sc, 520, "#7b4a6a", "#1a1230")
    cone = [(-20, 520), (60, 505), (180, 420), (262, 300), (282, 288), (300, 296), (318, 288), (338, 300), (420, 420), (540, 505), (620, 520)]
    i = sc.uid("B")
    sc.add(f'<g id="{i}"><path d="{smooth_d(cone, .12)}V530H-20Z" fill="#3a2440"/></g>')
    sc.add('<path d="M292 296C286 330 300 350 284 390 278 410 288 420 280 450M316 296C326 340 312 370 330 410" fill="none" stroke="#ff8a3c" stroke-width="4" stroke-linecap="round" opacity=".85"/>')
    glow(sc, 300, 292, 40, "#ffd07a", .9)
    reflect(sc, [i], 520, .45, clip)
    shimmer(sc, 525, 720, "#ff9a6a", 30, .35)
    near = [(x, 700 + 30 * math.sin(x / 90) + max(0, 250 - x) * -.4) for x in range(-20, 641, 40)]
    layer(sc, near, "#150d22")
    place(sc, "palm", [(40, yat(near, 40) + 4, 1.3), (95, yat(near, 95) + 4, -1, 1), (540, yat(near, 540) + 4, -1.2, 1.2)], "#150d22")
    vignette(sc, .45)


def s_starwater(sc):
    sky(sc, ["#030617", "#0c1535", "#1b2a55", "#2f4577"], [0, .3, .5, .6])
    glow(sc, 300, 260, 320, "#6b7fc7", .2)
    blur = sc.blur(22)
    sc.add(f'<g filter="{blur}" transform="rotate(-38 300 230)"><ellipse cx="300" cy="230" rx="360" ry="46" fill="#9aa8e8" opacity=".28"/>'
           f'<ellipse cx="320" cy="236" rx="200" ry="18" fill="#e8dcff" opacity=".3"/><ellipse cx="250" cy="222" rx="120" ry="10" fill="#1b2448" opacity=".5"/></g>')
    stars(sc, 130, 0, 460, band=(20, 470, 580, -10, 30))
    far = ridge(sc, 470, 30, ((.8, 1), (2.2, .4)), step=30)
    i1 = layer(sc, far, "#121c3a", keep=True)
    forest(sc, far, "pine", "#0b1228", -20, 620, (12, 20), (.35, .6), 6)
    clip = water(sc, 478, "#1c2b55", "#050a1c")
    reflect(sc, [i1], 478, .6, clip)
    sc.add(f'<rect y="476" width="600" height="4" fill="#0b1228"/>')
    shimmer(sc, 490, 700, "#cdd6ff", 26, .25)
    near = [(x, 690 - max(0, 200 - x) * .5 + 10 * math.sin(x / 40)) for x in range(-20, 641, 30)]
    layer(sc, near, "#070c1e")
    cabin(sc, 120, yat(near, 120) + 4, 1, "#2a1e24", "#140d12", "#ffc96b", "#ffae4f")
    sc.add('<path d="M150 664h150v5h-150ZM170 666v30M230 666v30M290 666v30" stroke="#0b1126" stroke-width="4" fill="#0b1126"/>')
    forest(sc, near, "fir", "#03060f", 330, 640, (18, 32), (1, 1.6), 30)
    vignette(sc, .45)


def s_amberwood(sc):
    sky(sc, ["#7fa9d2", "#f0c79c", "#f9dfae"], [0, .45, .6])
    sun(sc, 420, 320, 30, "#fff7df", "#ffd28a", 6, .65)
    cols = [("#d9a679", "#c9865a"), ("#d08147", "#b8602f"), ("#b5532d", "#8f3b22"), ("#7c3321", "#5a2418")]
    for k, (ground, tree) in enumerate(cols):
        base = 440 + k * 100
        pts = ridge(sc, base, 14 + k * 6, ((.6, 1), (1.7, .4)), step=40)
        layer(sc, pts, ground)
        forest(sc, pts, "tree", tree, -20, 620, (14 + k * 6, 26 + k * 8), (.6 + k * .3, .9 + k * .35), 14)
        if k < 3:
            band(sc, base - 50, 80, "#fbe2b6", .4 - k * .08, ramp=True)
    sc.add('<path d="M260 810C290 740 330 700 300 650 290 630 300 620 310 614 330 630 340 660 360 700 380 740 400 780 420 810Z" fill="#e8c08a" opacity=".75"/>')
    r = sc.r
    leaves = "".join(f"M{n(x)} {n(y)}q4-5 8 0q-4 5-8 0Z" for x, y in [(r.uniform(0, 600), r.uniform(200, 720)) for _ in range(24)])
    sc.add(f'<path d="{leaves}" fill="#f0a040" opacity=".8"/>')
    rays(sc, 420, 320, [(1.9, 2.0), (2.2, 2.28), (2.5, 2.6)], 600, "#fff2c8", .25)
    vignette(sc, .35)


def s_portavela(sc):
    sky(sc, ["#5aa7e0", "#9dcdee", "#e3f2f9"], [0, .35, .52])
    cumulus(sc, [(470, 120, .9), (140, 190, .6)], "#fff", .9, "#a9cce6")
    hill = ridge(sc, 380, 40, ((.6, 1), (1.5, .4)), step=40)
    layer(sc, hill, "#8fb37a")
    forest(sc, hill, "cypress", "#57804a", -20, 620, (20, 40), (.3, .45), 6)
    gnd = lambda x: 500
    facades = ["#f2b35e", "#e66f5c", "#f6e3c4", "#6fb3c8", "#f29e8e", "#e9c46a", "#9ac7a1", "#f7f0e6"]
    houses(sc, lambda x: 470 - 40 * math.exp(-((x - 300) / 160) ** 2), -10, 620, "#000", "#c65b3f", "#3b4f66", .35, 50, 100, 40, 60,
           facades=facades, spires=[(300, 26, 150)])
    sc.add('<path d="M-20 496h640v14h-640Z" fill="#b9a489"/>')
    clip = water(sc, 510, "#3f9dbb", "#12506e")
    shimmer(sc, 515, 780, "#e9fbff", 36, .45)
    r = sc.r
    for x, y, s, sail in [(120, 610, .9, "#fff"), (330, 700, 1.2, "#fff6e6"), (500, 580, .7, "#ffe3c8")]:
        boat(sc, x, y, s, ["#c8443b", "#2f6c8f", "#f0b35a"][int(x) % 3], sail)
    birds(sc, [(260, 240, 1), (282, 228, .8)], "#3a5a75")
    vignette(sc, .28)


def s_mesa_starcamp(sc):
    sky(sc, ["#070b22", "#1a1f4a", "#4a3568", "#9a5a6a"], [0, .35, .58, .7])
    stars(sc, 130, 0, 440)
    moon(sc, 150, 140, 18, "#fff4dc", "#ffd9b0", crescent=.5)
    mesa = [(-20, 560), (40, 560), (60, 450), (200, 440), (215, 560), (330, 560), (350, 480), (380, 470), (395, 560), (460, 560), (480, 400), (640, 396)]
    layer(sc, mesa, "#3d2748", smooth=False)
    band(sc, 470, 100, "#9a5a6a", .3, ramp=True)
    near = ridge(sc, 660, 24, ((.7, 1), (2, .3)), step=40)
    layer(sc, near, "#1e1326")
    place(sc, "cactus", [(90, yat(near, 90) + 4, 1.3), (520, yat(near, 520) + 4, 1.6), (450, yat(near, 450) + 4, .8)], "#150c1b")
    cx, cy = 300, yat(near, 300) + 6
    glow(sc, cx, cy - 10, 160, "#ff9a4a", .5)
    sc.add(f'<path d="M{cx - 40} {n(cy)}L{cx + 10} {n(cy - 64)} {cx + 60} {n(cy)}Z" fill="#e8a45a"/><path d="M{cx + 10} {n(cy - 64)}L{cx + 22} {n(cy)}H{cx}Z" fill="#7a3a2a"/>')
    sc.add(f'<path d="M{cx - 84} {n(cy)}q6-22 12-6q4-18 10 0Z" fill="#ffd47a"/><path d="M{cx - 92} {n(cy + 2)}h34" stroke="#2a1a1a" stroke-width="4"/>')
    vignette(sc, .45)


def s_terraces(sc):
    sky(sc, ["#9cc6e0", "#d7e8ee", "#f0f2e6"], [0, .4, .6])
    sun(sc, 460, 150, 28, "#fffdf0", "#fff4d0", 4, .5)
    g1, _ = mountains(sc, 380, [(120, 160, 200), (420, 200, 220)], "#a7bcc2", light=-1, shade=.1, jit=2)
    band(sc, 300, 110, "#f0f2e6", .7, ramp=True)
    base = ridge(sc, 420, 40, ((.7, 1), (1.6, .4)), step=40)
    base = [(x, y - 60 * math.exp(-((x - 380) / 160) ** 2)) for x, y in base]
    cols = ["#b9d58a", "#a6cb6c", "#93bf57", "#7fb147", "#6aa23a", "#58922f", "#478226"]
    dy = 0
    for k in range(16):
        c = cols[min(k // 2, len(cols) - 1)]
        pts = [(x, y + dy + 6 * math.sin(x / 60 + k)) for x, y in base]
        layer(sc, pts, c)
        sc.add(f'<path d="{smooth_d(pts)}" fill="none" stroke="#e8f5c8" stroke-width="{n(1 + k * .25)}" opacity=".6"/>')
        dy += 20 + k * 5
        if dy > 440:
            break
    place(sc, "tree", [(80, 470, .5), (520, 520, .7)], "#33601f")
    band(sc, 520, 120, "#f0f2e6", .25)
    vignette(sc, .28)


def s_silverfall(sc):
    sky(sc, ["#7fb2c9", "#c6dde0", "#e8efe6"], [0, .4, .55])
    far = ridge(sc, 330, 30, ((.7, 1), (1.8, .4)), step=40)
    layer(sc, far, "#9db7a8")
    forest(sc, far, "pine", "#86a495", -20, 620, (8, 14), (.3, .45), 6)
    band(sc, 270, 100, "#e8efe6", .55, ramp=True)
    g = sc.lin([(0, "#eaf6fb"), (1, "#b9dcea")])
    sc.add(f'<path d="M250 300C262 420 256 560 262 690H346C344 560 338 420 352 300Z" fill="{g}"/>')
    sc.add('<path d="M268 320V680M286 310V690M304 306V684M322 312V688M338 318V680" stroke="#8fc1d6" stroke-width="3" stroke-dasharray="40 18 20 30" opacity=".7"/>')
    lcl = [(-20, 250), (60, 260), (150, 280), (230, 290), (252, 300), (258, 420), (254, 560), (260, 700), (200, 720), (-20, 740)]
    rcl = [(620, 230), (540, 240), (440, 270), (370, 290), (350, 300), (344, 420), (340, 560), (346, 700), (420, 720), (620, 740)]
    for cl, c in ((lcl, "#5d6e66"), (rcl, "#4d5d57")):
        i = shape(sc, f"{poly_d(cl)}Z", c)
        rows_on(sc, i, [30, 70, 120, 170, 240, 300], "#33413c", [3, 2, 4, 2, 3, 2], op=.5)
    forest(sc, lcl[:5], "fir", "#2f4a3a", -20, 240, (12, 22), (.5, .8), 10)
    forest(sc, list(reversed(rcl[:5])), "fir", "#2a4234", 360, 640, (12, 22), (.55, .85), 10)
    water(sc, 680, "#6fb0c4", "#2a6276")
    blur = sc.blur(9)
    sc.add(f'<g fill="#fff" opacity=".85" filter="{blur}"><ellipse cx="300" cy="690" rx="90" ry="30"/><ellipse cx="250" cy="700" rx="50" ry="20"/><ellipse cx="360" cy="700" rx="60" ry="22"/></g>')
    shimmer(sc, 710, 790, "#eaf6fb", 18, .5)
    sc.add('<path d="M-20 800V750C60 740 120 760 170 790L180 810H-20ZM620 810V760C560 756 500 770 470 810Z" fill="#26352e"/>')
    birds(sc, [(440, 160, 1), (464, 150, .8)], "#3d5560")
    vignette(sc, .3)


def s_steamvale(sc):
    sky(sc, ["#2d3768", "#7b6c9e", "#e6a6a6", "#f6d0b0"], [0, .35, .58, .68])
    sun(sc, 150, 470, 22, "#fff1dc", "#ffc6a6", 5, .55)
    g1, pts = mountains(sc, 500, [(420, 220, 200), (180, 150, 180)], "#b7b6d6", snow=.6, snow_col="#f6f3ff", light=-1, shade=.18)
    band(sc, 430, 90, "#f6d0b0", .35, ramp=True)
    hill = ridge(sc, 560, 30, ((.8, 1), (2, .3)), step=40)
    layer(sc, hill, "#e9e8f6")
    forest(sc, hill, "fir", "#4a4f78", -20, 180, (14, 26), (.5, .8), 8)
    forest(sc, hill, "fir", "#4a4f78", 460, 620, (14, 26), (.5, .8), 8)
    sc.add('<ellipse cx="300" cy="650" rx="230" ry="58" fill="#cfd0e8"/>')
    g = sc.lin([(0, "#5fc7c4"), (1, "#2f8d9a")])
    sc.add(f'<ellipse cx="300" cy="655" rx="200" ry="44" fill="{g}"/>')
    shimmer(sc, 630, 690, "#e6fffb", 14, .5, (130, 440), 40)
    r = sc.r
    blur = sc.blur(8)
    steam = "".join(f'<path d="M{n(x)} 640c-20-40 20-60 0-100s20-60 0-110" stroke-width="{n(w)}"/>' for x, w in [(200, 26), (280, 34), (360, 28), (430, 20)])
    sc.add(f'<g fill="none" stroke="#fff" opacity=".45" filter="{blur}">{steam}</g>')
    rocks = "".join(f'<ellipse cx="{n(x)}" cy="{n(y)}" rx="{n(rx)}" ry="{n(rx * .55)}"/>' for x, y, rx in [(110, 660, 22), (140, 690, 16), (480, 672, 24), (500, 640, 14), (420, 700, 12)])
    sc.add(f'<g fill="#6a6790">{rocks}</g>')
    layer(sc, [(x, 760 + 12 * math.sin(x / 70)) for x in range(-20, 641, 40)], "#f3f2fb")
    vignette(sc, .35)


def s_windmill(sc):
    sky(sc, ["#4e86c4", "#9cc3e6", "#e6f0f5"], [0, .45, .62])
    cumulus(sc, [(160, 150, 1.3), (450, 230, 1), (300, 330, .6)], "#fff", .95, "#9db9d4")
    sc.add('<path d="M-20 470H620V480H-20Z" fill="#7b9a6a"/>')
    i = shape(sc, "M-20 476H620V810H-20Z", "#5f8f3e")
    vx, vy = 300, 470
    r = sc.r
    colors = ["#e94b4b", "#f6c945", "#f58ab0", "#ffffff", "#e94b4b", "#f08a3c", "#b66bd6"]
    d = {}
    for k in range(-12, 13):
        xb0, xb1 = 300 + k * 90, 300 + (k + 1) * 90
        c = colors[(k + 12) % len(colors)] if k % 2 == 0 else "#4f8a33"
        d.setdefault(c, []).append(f"M{vx} {vy}L{xb0} 810H{xb1}Z")
    clip = sc.clip_use(i + "d")
    sc.add(f'<g clip-path="{clip}">' + "".join(f'<path d="{"".join(v)}" fill="{c}"/>' for c, v in d.items()) + "</g>")
    g = sc.lin([(0, "#e6f0f5", .8), (1, "#e6f0f5", 0)])
    sc.add(f'<rect y="470" width="600" height="60" fill="{g}"/>')
    x, y = 430, 476
    sc.add(f'<path d="M{x - 28} {y}L{x - 18} {y - 150}H{x + 18}L{x + 28} {y}Z" fill="#6b4a3a"/><path d="M{x - 22} {y - 148}Q{x} {y - 182} {x + 22} {y - 148}Z" fill="#3e2a22"/>'
           f'<path d="M{x - 6} {y}v-26a6 6 0 0 1 12 0v26Z" fill="#2a1c16"/>')
    hx, hy = x, y - 150
    blades = "".join(f'<g transform="rotate({a} {hx} {hy})"><path d="M{hx - 2} {hy}V{hy - 118}h4V{hy}Z"/><path d="M{hx + 2} {hy - 24}h16v-90h-16Z" opacity=".8"/></g>' for a in (20, 110, 200, 290))
    sc.add(f'<g fill="#f4eee4">{blades}</g><circle cx="{hx}" cy="{hy}" r="6" fill="#3e2a22"/>')
    place(sc, "tree", [(120, 478, .4), (150, 478, .35), (60, 478, .45)], "#4a6a3a")
    birds(sc, [(240, 250, 1), (262, 240, .8)], "#3a5575")
    vignette(sc, .25)


def s_driftwood(sc):
    sky(sc, ["#6d80c0", "#c59bc4", "#f6b8b0", "#fde1c0"], [0, .35, .55, .62])
    sun(sc, 330, 470, 34, "#fff6e6", "#ffd0b8", 5, .6)
    streaks(sc, [(30, 230, 240, 9), (340, 200, 230, 11), (180, 300, 200, 6), (420, 330, 160, 5)], "#ffd6d0", .5)
    water(sc, 480, "#e9a7b4", "#6a7fb8", 640)
    sun_path(sc, 330, 482, 600, "#fff1e6", .6, 70)
    shimmer(sc, 490, 620, "#fff", 20, .35)
    sand = [(x, 620 + 14 * math.sin(x / 110)) for x in range(-20, 641, 40)]
    layer(sc, sand, "#f4d6bc")
    wet = [(x, y + 14) for x, y in sand]
    g = sc.lin([(0, "#d9b8a6"), (1, "#f4d6bc")])
    layer(sc, wet, g)
    sc.add(f'<path d="{smooth_d([(x, y + 2) for x, y in sand])}" fill="none" stroke="#fff" stroke-width="4" opacity=".85"/>')
    sc.add('<path d="M90 730C160 722 260 728 330 716L338 728C260 742 160 740 96 744Z" fill="#8a6a5a"/><path d="M300 720l30-26 6 6-24 22Z" fill="#8a6a5a"/>')
    place(sc, "palm", [(560, 740, -1.4, 1.4)], "#5b4c6e")
    birds(sc, [(150, 380, 1.1), (176, 368, .9), (130, 392, .7)], "#6a4a6a")
    r = sc.r
    shells = "".join(f'<circle cx="{n(r.uniform(20, 580))}" cy="{n(r.uniform(680, 790))}" r="{n1(r.uniform(1.5, 3))}"/>' for _ in range(14))
    sc.add(f'<g fill="#fff3e8" opacity=".8">{shells}</g>')
    vignette(sc, .3)


def s_castelmonte(sc):
    sky(sc, ["#5c86c0", "#e6b98a", "#f8d9a0"], [0, .5, .64])
    sun(sc, 480, 300, 26, "#fff8e0", "#ffd590", 6, .6)
    far = ridge(sc, 500, 20, ((.8, 1), (2, .4)), step=40)
    layer(sc, far, "#b8a888")
    band(sc, 440, 80, "#f8d9a0", .45, ramp=True)
    hill = [(x, 560 - 170 * math.exp(-((x - 300) / 150) ** 2)) for x in range(-20, 641, 30)]
    layer(sc, hill, "#a8945c")
    top = lambda x: yat(hill, x)
    houses(sc, lambda x: top(x) + 10, 190, 300, "#e9c99a", "#b5613e", "#6a4a35", .5, 40, 70, 20, 34)
    houses(sc, lambda x: top(x) + 10, 300, 420, "#dcb887", "#a8573a", "#6a4a35", .5, 40, 70, 20, 34,
           spires=[(300, 24, 120)])
    sc.add(f'<path d="M170 {n(top(170) + 20)}C230 {n(top(230) + 34)} 370 {n(top(370) + 34)} 430 {n(top(430) + 20)}V{n(top(430) + 44)}C370 {n(top(370) + 58)} 230 {n(top(230) + 58)} 170 {n(top(170) + 44)}Z" fill="#c9a676"/>')
    sc.add(f'<path d="M170 {n(top(170) + 20)}C230 {n(top(230) + 34)} 370 {n(top(370) + 34)} 430 {n(top(430) + 20)}" fill="none" stroke="#8f6e48" stroke-width="3" stroke-dasharray="6 5"/>')
    near = ridge(sc, 680, 36, ((.7, 1), (1.8, .3)), step=40)
    i = layer(sc, near, "#8fa253", keep=True)
    rows_on(sc, i, [14 + k * 14 + k * k * 4 for k in range(8)], "#5e7433", [2 + k for k in range(8)], "6 4")
    place(sc, "cypress", [(x, yat(hill, x) + 4, s) for x, s in ((120, .6), (140, .5), (470, .6), (490, .7))], "#4a5a2e")
    place(sc, "cypress", [(x, yat(near, x) + 6, s) for x, s in ((60, 1.4), (90, 1.1), (530, 1.5))], "#36461f")
    vignette(sc, .32)


# ---------------------------------------------------------------- cover

def cover():
    sc = Scene(4242, 800, 500)
    sky(sc, ["#3a2f6e", "#8a4f8f", "#ef8a76", "#fcd29a"], [0, .35, .65, .8])
    sun(sc, 560, 330, 46, "#fff3da", "#ffc08a", 4, .6)
    streaks(sc, [(60, 90, 260, 10), (480, 60, 260, 12), (420, 150, 220, 7)], "#ffc4b4", .45)
    for base, amp, col in ((360, 40, "#8a5f9a"), (410, 30, "#5e3f7a"), (460, 26, "#3a2a58")):
        layer(sc, ridge(sc, base, amp, ((.6, 1), (1.7, .4)), step=50), col)
    # a stack of three tilted mini cards
    cards = [(-10, "#62a8e0", "#7fbf5e"), (6, "#f7a35c", "#b95a31"), (0, "#2f3a6b", "#8a7eae")]
    for k, (ang, skyc, land) in enumerate(cards):
        cx, cy = 400 + k * 4, 236 - k * 6
        g = sc.lin([(0, skyc), (1, mix(skyc, "#fff", .5))])
        clip = sc.uid("c")
        sc.defs.append(f'<clipPath id="{clip}"><rect x="{cx - 95}" y="{cy - 130}" width="190" height="250" rx="18"/></clipPath>')
        inner = (f'<rect x="{cx - 95}" y="{cy - 130}" width="190" height="250" fill="{g}"/>'
                 f'<path d="M{cx - 100} {cy + 40}C{cx - 40} {cy - 20} {cx + 20} {cy + 30} {cx + 100} {cy - 10}V{cy + 130}H{cx - 100}Z" fill="{land}"/>'
                 f'<path d="M{cx - 100} {cy + 80}C{cx - 30} {cy + 50} {cx + 40} {cy + 90} {cx + 100} {cy + 60}V{cy + 130}H{cx - 100}Z" fill="{mix(land, "#000", .3)}"/>')
        if k == 2:
            inner += f'<circle cx="{cx + 40}" cy="{cy - 60}" r="16" fill="#fff3df"/>'
            g2 = sc.lin([(0, "#000", 0), (1, "#000", .45)])
            inner += f'<rect x="{cx - 95}" y="{cy + 40}" width="190" height="80" fill="{g2}"/>'
            inner += f'<rect x="{cx - 75}" y="{cy + 78}" width="90" height="10" rx="5" fill="#fff"/><rect x="{cx - 75}" y="{cy + 96}" width="60" height="7" rx="3.5" fill="#fff" opacity=".7"/>'
        sc.add(f'<g transform="rotate({ang} {cx} {cy + 120})"><rect x="{cx - 95}" y="{cy - 124}" width="190" height="250" rx="18" fill="#1a1030" opacity=".25"/>'
               f'<g clip-path="url(#{clip})">{inner}</g><rect x="{cx - 95}" y="{cy - 130}" width="190" height="250" rx="18" fill="none" stroke="#fff" stroke-width="5"/></g>')
    sc.add('<g fill="#1a1030" opacity=".25"><circle cx="320" cy="442" r="27"/><circle cx="488" cy="442" r="27"/></g>'
           '<circle cx="320" cy="438" r="26" fill="#fff"/><path d="M310 428l20 20M330 428l-20 20" stroke="#f0506e" stroke-width="5" stroke-linecap="round"/>'
           '<circle cx="488" cy="438" r="26" fill="#fff"/><path d="M488 450c-14-9-18-16-14-22 3-5 10-5 14 1 4-6 11-6 14-1 4 6 0 13-14 22Z" fill="#2ecc8f"/>')
    vignette(sc, .3, .5)
    return sc.svg()


# ---------------------------------------------------------------- registry

SCENES = [
    ("mirror-lake", s_mirror_lake), ("saffron-dunes", s_saffron_dunes), ("aurora-fjord", s_aurora_fjord),
    ("coral-key", s_coral_key), ("ember-canyon", s_ember_canyon), ("valmora-vineyards", s_valmora_vineyards),
    ("old-town", s_old_town), ("fernhollow-forest", s_fernhollow), ("gullcliff-coast", s_gullcliff),
    ("glacier-hut", s_glacier_hut), ("lavender-valley", s_lavender), ("meadowbrook-hills", s_meadowbrook),
    ("lantern-point", s_lantern_point), ("cinder-isle", s_cinder_isle), ("starwater-lake", s_starwater),
    ("amberwood-trails", s_amberwood), ("portavela-harbour", s_portavela), ("mesa-starcamp", s_mesa_starcamp),
    ("terraced-valley", s_terraces), ("silverfall-gorge", s_silverfall), ("steamvale-springs", s_steamvale),
    ("windmill-polders", s_windmill), ("driftwood-bay", s_driftwood), ("castelmonte", s_castelmonte),
]


def render_all():
    files = {}
    for k, (slug, fn) in enumerate(SCENES, 1):
        sc = Scene(1000 + k * 7919)
        fn(sc)
        files[f"{k:02d}-{slug}.svg"] = sc.svg()
    files["cover.svg"] = cover()
    return files


def problems(files):
    out = []
    for name, text in files.items():
        size = len(text.encode())
        if size > MAX_BYTES:
            out.append(f"{name} is {size} bytes (limit {MAX_BYTES})")
        body = text.replace('xmlns="http://www.w3.org/2000/svg"', "")
        for bad in ("<script", "<text", "font", "http:", "https:", "xlink", "<image", "<foreignObject", "@import", "on"):
            if bad == "on":
                if " on" in body.replace(" offset", ""):
                    out.append(f"{name} has an event attribute")
            elif bad in body:
                out.append(f"{name} contains {bad!r}")
    return out


def main(argv):
    files = render_all()
    if "--list" in argv:
        for name, text in files.items():
            print(f"{name:32s} {len(text.encode()):6d}")
    bad = problems(files)
    if bad:
        print("\n".join(bad), file=sys.stderr)
        if "--draft" not in argv:
            sys.exit(1)
    if "--list" in argv:
        return
    if "--check" in argv:
        stale = [nm for nm, t in files.items()
                 if not os.path.exists(os.path.join(OUT_DIR, nm)) or open(os.path.join(OUT_DIR, nm), encoding="utf-8").read() != t]
        if stale:
            sys.exit("out of date: " + ", ".join(stale))
        print(f"{len(files)} files up to date")
        return
    os.makedirs(OUT_DIR, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(OUT_DIR, name), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    print(f"wrote {len(files)} files to {os.path.relpath(OUT_DIR, ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
