#!/usr/bin/env python3
"""Independent reference numbers for the TCX, FIT and IGC reader tests (development time only).

    python3 -m venv /tmp/ref && /tmp/ref/bin/pip install geographiclib==2.1 fitdecode==0.11.0 \\
        tcxreader==0.4.11 aerofiles==1.5.6 python-dateutil==2.9.0.post0
    /tmp/ref/bin/python Tests/MapDataTests/Fixtures/reference/tracks.py

FIT files are decoded by fitdecode (record messages with position_lat/position_long, in
degrees), TCX files by tcxreader (the track points of each lap, each lap one <Track> in these
files), IGC files by aerofiles (B records; the LAD/LOD extensions, further decimals of the
minutes, are added here as the IGC specification says, since aerofiles leaves them out).
Lengths are sums of WGS84 geodesic distances from GeographicLib's Geodesic.WGS84.Inverse
between consecutive points of each segment. The output is pasted into TrackReaderTests.swift.
"""
import json

import fitdecode
from aerofiles.igc import Reader as IGCReader
from geographiclib.geodesic import Geodesic
from tcxreader.tcxreader import TCXReader

G = Geodesic.WGS84
BASE = "Tests/MapDataTests/Fixtures/tracks/"


def length(coords):
    return sum(G.Inverse(a[0], a[1], b[0], b[1])["s12"] for a, b in zip(coords, coords[1:]))


def fit(name):
    points, eles, hrs = [], [], []
    with fitdecode.FitReader(BASE + name, check_crc=fitdecode.CrcCheck.RAISE) as r:
        for frame in r:
            if isinstance(frame, fitdecode.FitDataMessage) and frame.name == "record":
                lat = frame.get_value("position_lat", fallback=None)
                lon = frame.get_value("position_long", fallback=None)
                if lat is None or lon is None:
                    continue
                points.append((lat * 180 / 2**31, lon * 180 / 2**31))
                e = frame.get_value("enhanced_altitude", fallback=None)
                if e is None:
                    e = frame.get_value("altitude", fallback=None)
                if e is not None:
                    eles.append(e)
                h = frame.get_value("heart_rate", fallback=None)
                if h is not None:
                    hrs.append(h)
    return {"points": len(points), "length_m": length(points),
            "elevation": [min(eles), max(eles)] if eles else None,
            "heart_rate": [min(hrs), max(hrs)] if hrs else None}


def tcx(name):
    ex = TCXReader().read(BASE + name)
    segments = [[(p.latitude, p.longitude) for p in lap.trackpoints if p.latitude is not None]
                for lap in ex.laps]
    eles = [p.elevation for p in ex.trackpoints if p.latitude is not None and p.elevation is not None]
    return {"points": sum(len(s) for s in segments), "segments": len(segments),
            "length_m": sum(length(s) for s in segments),
            "elevation": [min(eles), max(eles)] if eles else None}


def igc(name):
    with open(BASE + name) as f:
        doc = IGCReader().read(f)
    fixes = doc["fix_records"][1]
    points = []
    for x in fixes:
        lat, lon = x["lat"], x["lon"]
        if "LAD" in x:
            lat += (1 if lat >= 0 else -1) * x["LAD"] / 10 / 1000 / 60
        if "LOD" in x:
            lon += (1 if lon >= 0 else -1) * x["LOD"] / 10 / 1000 / 60
        points.append((lat, lon))
    return {"points": len(points), "length_m": length(points)}


if __name__ == "__main__":
    for name in ["ride-2020-06-01.fit", "activity-4801048867.fit", "indoor-6471559601.fit"]:
        print(name, json.dumps(fit(name)))
    print("activity-5039744860.tcx", json.dumps(tcx("activity-5039744860.tcx")))
    for name in ["example.igc", "xctrack-2023-04-28-start.igc"]:
        print(name, json.dumps(igc(name)))
