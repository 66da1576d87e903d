#!/usr/bin/env python3
"""Independent reference numbers for the reader tests (run at development time).

    pip install geographiclib==2.1 gpxpy==1.6.2
    python3 Tests/MapDataTests/Fixtures/reference/expected.py

GPX files are parsed by gpxpy, GeoJSON by Python's json module and KML by
xml.etree.ElementTree; lengths are sums of WGS84 geodesic distances from GeographicLib's
Geodesic.WGS84.Inverse between consecutive vertices, within each track segment, route or line
(never across the gap between two segments). Polygon rings are not lines.
"""
import json
import sys
import xml.etree.ElementTree as ET

import gpxpy
from geographiclib.geodesic import Geodesic

G = Geodesic.WGS84


def length(coords):  # coords: [(lat, lon)]
    return sum(G.Inverse(a[0], a[1], b[0], b[1])["s12"] for a, b in zip(coords, coords[1:]))


def gpx(path):
    with open(path) as f:
        g = gpxpy.parse(f)
    lines = [[(p.latitude, p.longitude) for p in s.points] for t in g.tracks for s in t.segments]
    lines += [[(p.latitude, p.longitude) for p in r.points] for r in g.routes]
    eles = [p.elevation for t in g.tracks for s in t.segments for p in s.points if p.elevation is not None]
    eles += [p.elevation for r in g.routes for p in r.points if p.elevation is not None]
    return {
        "tracks": len(g.tracks), "segments": sum(len(t.segments) for t in g.tracks),
        "routes": len(g.routes), "waypoints": len(g.waypoints),
        "points": sum(len(l) for l in lines), "length_m": sum(length(l) for l in lines),
        "elevation": [min(eles), max(eles)] if eles else None,
    }


def geojson(path):
    with open(path) as f:
        doc = json.load(f)
    lines, polygons, points, vertices = [], 0, 0, 0

    def geometry(g):
        nonlocal polygons, points, vertices
        if g is None:
            return
        t = g["type"]
        if t == "GeometryCollection":
            for h in g["geometries"]:
                geometry(h)
        elif t == "Point":
            points += 1
        elif t == "MultiPoint":
            points += len(g["coordinates"])
        elif t == "LineString":
            lines.append([(c[1], c[0]) for c in g["coordinates"]])
        elif t == "MultiLineString":
            lines.extend([(c[1], c[0]) for c in l] for l in g["coordinates"])
        elif t == "Polygon":
            polygons += 1
            vertices += sum(len(r) for r in g["coordinates"])
        elif t == "MultiPolygon":
            polygons += len(g["coordinates"])
            vertices += sum(len(r) for p in g["coordinates"] for r in p)

    features = doc["features"] if doc["type"] == "FeatureCollection" else [doc]
    for feat in features:
        geometry(feat["geometry"] if feat["type"] == "Feature" else feat)
    return {"lines": len(lines), "polygons": polygons, "annotations": points,
            "points": vertices + sum(len(l) for l in lines),
            "length_m": sum(length(l) for l in lines)}


def kml(path):
    ns = {"k": "http://www.opengis.net/kml/2.2", "gx": "http://www.google.com/kml/ext/2.2"}
    root = ET.parse(path).getroot()

    def coords(text):
        out = []
        for t in text.split():
            v = t.split(",")
            out.append((float(v[1]), float(v[0])))
        return out

    lines = [coords(e.text) for e in root.iter("{%s}LineString" % ns["k"])
             for e in e.findall("k:coordinates", ns)]
    lines += [coords(e.find("k:coordinates", ns).text) for e in root.iter("{%s}LinearRing" % ns["k"])
              if e not in {r for p in root.iter("{%s}Polygon" % ns["k"]) for r in p.iter("{%s}LinearRing" % ns["k"])}]
    tracks = [[(float(c.text.split()[1]), float(c.text.split()[0])) for c in t.findall("gx:coord", ns)]
              for t in root.iter("{%s}Track" % ns["gx"])]
    lines += tracks
    polygons = list(root.iter("{%s}Polygon" % ns["k"]))
    ring_vertices = sum(len(coords(r.find("k:coordinates", ns).text)) for p in polygons
                        for r in p.iter("{%s}LinearRing" % ns["k"]))
    points = list(root.iter("{%s}Point" % ns["k"]))
    return {"lines": len(lines), "polygons": len(polygons), "annotations": len(points),
            "points": ring_vertices + sum(len(l) for l in lines),
            "length_m": sum(length(l) for l in lines)}


if __name__ == "__main__":
    base = "Data/samples/"
    for name in ["korita-zbevnica.gpx", "cerknicko-jezero.gpx", "Mojstrovka.gpx", "route.gpx"]:
        print(name, json.dumps(gpx(base + name)))
    for name in sys.argv[1:]:
        print(name, json.dumps(geojson(base + name) if name.endswith("json") else kml(base + name)))
