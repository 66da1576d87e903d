#!/usr/bin/env python3
"""Write Tests/LiveLocationTests/Fixtures/monaco-ride.nmea: a bicycle ride through Monaco as a
GNSS receiver would log it, along the streets of Data/monaco.mbtiles (OpenStreetMap, ODbL).

The log is *written to match a receiver*, not recorded from one. Once per second it has what a
u-blox-style receiver emits at 1 Hz: GPGGA, GPGSA, three GPGSV and GPRMC, with valid
checksums; speed and course come from the path, the position has a little noise (about a
metre), HDOP wanders between 0.8 and 1.4, and the sky holds eleven satellites (eight used) that
move slowly. A 20-second tunnel (Boulevard Louis II) has no fix: GGA quality 0, RMC status V,
GSA mode 1, with GSV still listing satellites at low signal.

How the path is made: the roads of the z14 tiles (layer `transportation`) become a graph on
the tiles' integer grid (extent 4096 at zoom 14, about 0.6 m); shortest paths join the
waypoints below (the harbour, Casino square, Larvotto, back along the harbour, the Rock).

Development time only (Python 3.9+, standard library only; no network). Deterministic:
random.Random(9). Usage: python3 Data/tools/make-monaco-ride-nmea.py
"""
import gzip
import heapq
import math
import os
import random
import sqlite3

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MBTILES = os.path.join(REPO, "Data", "monaco.mbtiles")
OUT = os.path.join(REPO, "Tests", "LiveLocationTests", "Fixtures", "monaco-ride.nmea")
Z = 14
EXTENT = 4096
WAYPOINTS = [  # (lat, lon)
    (43.73385, 7.42105),  # Port Hercule, south-west quay
    (43.73800, 7.42400),  # Sainte-Dévote
    (43.73950, 7.42780),  # Casino square
    (43.74380, 7.43180),  # Boulevard des Moulins
    (43.74640, 7.43500),  # Larvotto
    (43.74050, 7.42990),  # down towards the Fairmont
    (43.73600, 7.42420),  # the harbour again
    (43.73140, 7.42010),  # the Palace, on the Rock
]
SPEED = 5.0  # m/s, a relaxed ride
ROAD_CLASSES = {"primary", "secondary", "tertiary", "minor", "service", "path", "track",
                "trunk", "pedestrian", "residential", "living_street", "unclassified"}
TUNNEL = (400, 420)  # seconds without a fix


# --- a minimal MVT 2.1 reader: just what the road layer needs -----------------------------
def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b):
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        n, t = key >> 3, key & 7
        if t == 0:
            v, i = varint(b, i)
        elif t == 2:
            ln, i = varint(b, i)
            v, i = b[i:i + ln], i + ln
        elif t == 5:
            v, i = b[i:i + 4], i + 4
        elif t == 1:
            v, i = b[i:i + 8], i + 8
        else:
            raise ValueError("wire type %d" % t)
        yield n, v


def packed(b):
    out, i = [], 0
    while i < len(b):
        v, i = varint(b, i)
        out.append(v)
    return out


def zigzag(n):
    return (n >> 1) ^ -(n & 1)


def lines(geometry):
    cmds, i, x, y, cur, out = packed(geometry), 0, 0, 0, None, []
    while i < len(cmds):
        cid, count = cmds[i] & 7, cmds[i] >> 3
        i += 1
        for _ in range(count):
            if cid in (1, 2):
                x += zigzag(cmds[i])
                y += zigzag(cmds[i + 1])
                i += 2
                if cid == 1:
                    cur = [(x, y)]
                    out.append(cur)
                else:
                    cur.append((x, y))
    return out


def road_lines():
    db = sqlite3.connect(MBTILES)
    for col, row, data in db.execute(
            "SELECT tile_column, tile_row, tile_data FROM tiles WHERE zoom_level=?", (Z,)):
        y_tile = (1 << Z) - 1 - row
        tile = gzip.decompress(data)
        for n, layer in fields(tile):
            if n != 3:
                continue
            name, keys, values, feats = None, [], [], []
            for m, v in fields(layer):
                if m == 1:
                    name = v.decode()
                elif m == 2:
                    feats.append(v)
                elif m == 3:
                    keys.append(v.decode())
                elif m == 4:
                    values.append(next((bytes(w).decode() for k, w in fields(v) if k == 1), None))
            if name != "transportation":
                continue
            for f in feats:
                tags, gtype, geom = [], 0, b""
                for m, v in fields(f):
                    if m == 2:
                        tags = packed(v)
                    elif m == 3:
                        gtype = v
                    elif m == 4:
                        geom = v
                props = {keys[tags[k]]: values[tags[k + 1]] for k in range(0, len(tags), 2)}
                if gtype != 2 or props.get("class") not in ROAD_CLASSES:
                    continue
                for ln in lines(geom):
                    # Global grid units at zoom 14; parts in the buffer outside the tile dropped
                    # by keeping only vertices inside (neighbours hold the rest).
                    yield [(col * EXTENT + px, y_tile * EXTENT + py) for px, py in ln]


def to_latlon(gx, gy):
    n = (1 << Z) * EXTENT
    lon = gx / n * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * gy / n))))
    return lat, lon


def to_grid(lat, lon):
    n = (1 << Z) * EXTENT
    x = (lon + 180) / 360 * n
    s = math.sin(math.radians(lat))
    y = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * n
    return x, y


def metres(a, b):
    (la1, lo1), (la2, lo2) = a, b
    p1, p2 = math.radians(la1), math.radians(la2)
    dp, dl = p2 - p1, math.radians(lo2 - lo1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(h))


def graph():
    g = {}
    for ln in road_lines():
        for a, b in zip(ln, ln[1:]):
            if a == b:
                continue
            d = math.dist(a, b)
            g.setdefault(a, {})[b] = d
            g.setdefault(b, {})[a] = d
    return g


def shortest(g, start, goal):
    dist, prev, heap = {start: 0}, {}, [(0, start)]
    while heap:
        d, u = heapq.heappop(heap)
        if u == goal:
            break
        if d > dist[u]:
            continue
        for v, w in g[u].items():
            nd = d + w
            if nd < dist.get(v, 1e18):
                dist[v], prev[v] = nd, u
                heapq.heappush(heap, (nd, v))
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    return path[::-1]


def largest_component(g):
    seen, best = set(), set()
    for s in g:
        if s in seen:
            continue
        comp, stack = {s}, [s]
        while stack:
            u = stack.pop()
            for v in g[u]:
                if v not in comp:
                    comp.add(v)
                    stack.append(v)
        seen |= comp
        if len(comp) > len(best):
            best = comp
    return best


def nmea(body):
    c = 0
    for ch in body.encode():
        c ^= ch
    return "$%s*%02X\r\n" % (body, c)


def ddmm(value, deg_digits, pos, neg):
    h = pos if value >= 0 else neg
    v = abs(value)
    d = int(v)
    m = (v - d) * 60
    return ("%0*d%07.4f" % (deg_digits, d, m)), h


def main():
    g = graph()
    comp = largest_component(g)
    nodes = list(comp)
    snapped = []
    for lat, lon in WAYPOINTS:
        gx, gy = to_grid(lat, lon)
        snapped.append(min(nodes, key=lambda p: (p[0] - gx) ** 2 + (p[1] - gy) ** 2))
    route = [snapped[0]]
    for a, b in zip(snapped, snapped[1:]):
        route += shortest(g, a, b)[1:]
    pts = [to_latlon(*p) for p in route]
    # Resample at SPEED metres per second.
    samples, carry = [pts[0]], 0.0
    for a, b in zip(pts, pts[1:]):
        d = metres(a, b)
        t = SPEED - carry
        while t <= d:
            f = t / d
            samples.append((a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f))
            t += SPEED
        carry = d - (t - SPEED)
    rnd = random.Random(9)
    sats = [  # PRN, elevation, azimuth, SNR
        [2, 62, 301, 44], [5, 48, 87, 42], [7, 23, 164, 37], [9, 71, 205, 46],
        [13, 35, 48, 40], [15, 12, 252, 31], [18, 54, 130, 43], [20, 28, 320, 38],
        [25, 8, 15, 27], [29, 41, 275, 41], [30, 17, 198, 33]]
    used = [2, 5, 7, 9, 13, 18, 20, 29]
    out = []
    alt, hdop = 35.0, 1.0
    start = 8 * 3600  # 08:00:00 UTC on 15 June 2024
    noise = (0.0, 0.0)
    for k, (lat, lon) in enumerate(samples):
        t = start + k
        hms = "%02d%02d%02d.00" % (t // 3600, t // 60 % 60, t % 60)
        nxt = samples[min(k + 1, len(samples) - 1)]
        prv = samples[max(k - 1, 0)]
        dy = (nxt[0] - prv[0]) * 111_320
        dx = (nxt[1] - prv[1]) * 111_320 * math.cos(math.radians(lat))
        course = (math.degrees(math.atan2(dx, dy)) + 360) % 360
        speed = SPEED * (0.9 + 0.2 * rnd.random()) if k + 1 < len(samples) else 0.0
        noise = (noise[0] * 0.7 + rnd.gauss(0, 0.6), noise[1] * 0.7 + rnd.gauss(0, 0.6))
        nlat = lat + noise[0] / 111_320
        nlon = lon + noise[1] / (111_320 * math.cos(math.radians(lat)))
        alt = min(max(alt + rnd.gauss(0, 0.4), 5), 70)
        hdop = min(max(hdop + rnd.gauss(0, 0.05), 0.8), 1.4)
        if k % 60 == 0:
            for s in sats:
                s[2] = (s[2] + 1) % 360
                s[3] = min(max(s[3] + rnd.choice((-1, 0, 1)), 20), 50)
        tunnel = TUNNEL[0] <= k < TUNNEL[1]
        la, ns = ddmm(nlat, 2, "N", "S")
        lo, ew = ddmm(nlon, 3, "E", "W")
        if tunnel:
            out.append(nmea("GPGGA,%s,,,,,0,00,99.99,,,,,," % hms))
            out.append(nmea("GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"))
        else:
            out.append(nmea("GPGGA,%s,%s,%s,%s,%s,1,%02d,%.2f,%.1f,M,47.3,M,,"
                            % (hms, la, ns, lo, ew, len(used), hdop, alt)))
            out.append(nmea("GPGSA,A,3,%s,%.2f,%.2f,%.2f" % (
                ",".join(["%02d" % p for p in used] + [""] * (12 - len(used))),
                hdop * 1.6, hdop, hdop * 1.3)))
        for m in range(3):
            group = sats[m * 4:m * 4 + 4]
            body = "GPGSV,3,%d,%02d" % (m + 1, len(sats))
            for prn, el, az, snr in group:
                body += ",%02d,%02d,%03d,%s" % (prn, el, az, "%02d" % (snr // 3 if tunnel else snr))
            out.append(nmea(body))
        date = "150624"
        if tunnel:
            out.append(nmea("GPRMC,%s,V,,,,,,,%s,,,N" % (hms, date)))
        else:
            out.append(nmea("GPRMC,%s,A,%s,%s,%s,%s,%.2f,%.1f,%s,,,A"
                            % (hms, la, ns, lo, ew, speed / 0.514444, course, date)))
    with open(OUT, "w", newline="") as f:
        f.write("".join(out))
    print("%s: %d fixes, %.1f km" % (os.path.relpath(OUT, REPO), len(samples),
                                     len(samples) * SPEED / 1000))


if __name__ == "__main__":
    main()
