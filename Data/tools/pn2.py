#!/usr/bin/env python3
"""Read Marble's .pn2 vector files (version 2) as GeoJSON geometries.

Debian's marble-qt-data ships some Natural Earth 1:50m layers in this format
(/usr/share/marble/data/naturalearth/*.pn2), among them two that no PyPI or
Debian package carries as shapefiles: ne_50m_rivers_lake_centerlines and
ne_50m_urban_areas. The format keeps geometry only (no attributes).

Layout (Qt QDataStream, big-endian): a header of quint8 version (2),
quint32 count of records, quint8 has-colour flag; then per record quint8 flag
(0 line string, 1 linear ring, 2 outer ring, 3 inner ring of the preceding
outer ring, 4 multi-geometry) and quint32 placemark id; a record whose id
differs from the previous one starts a new placemark (and then carries a
quint8 colour index when the file has colours). Flags 0-3 continue with
quint32 count of absolute nodes, each qint16 lat, qint16 lon (units of
1/120 degree, 30 arc seconds), qint16 count of relative nodes, each
qint8 lat, qint8 lon added to that absolute node. Flag 4 continues with
quint8 count of members, each quint8 flag, quint32 id, quint32 node count and
nodes as above.

Usage as a script: pn2.py FILE.pn2 > FILE.geojsonl (one Feature per line).
"""
import json
import struct
import sys

LINESTRING, LINEARRING, OUTER, INNER, MULTI = range(5)


class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, fmt):
        values = struct.unpack_from(">" + fmt, self.data, self.pos)
        self.pos += struct.calcsize(">" + fmt)
        return values

    def at_end(self):
        return self.pos >= len(self.data)


def _nodes(r, count):
    points = []
    for _ in range(count):
        lat, lon, relative = r.take("hhh")
        points.append((lon, lat))
        for _ in range(relative):
            dlat, dlon = r.take("bb")
            points.append((lon + dlon, lat + dlat))
    return [[round(x / 120.0, 5), round(y / 120.0, 5)] for x, y in points]


def read(path):
    """The placemarks of a version-2 .pn2 file as a list of GeoJSON geometries."""
    with open(path, "rb") as f:
        r = _Reader(f.read())
    version, records, has_colour = r.take("BIB")
    if version != 2:
        raise ValueError("%s: pn2 version %d, only 2 is read" % (path, version))
    placemarks = []  # each a list of parts: ("line", coords) or ("polygon", [rings])
    previous_id = None
    for _ in range(records):
        if r.at_end():
            break
        flag, pid = r.take("BI")
        if pid != previous_id:
            if has_colour:
                r.take("B")
            placemarks.append([])
            previous_id = pid
        parts = placemarks[-1]
        if flag == MULTI:
            (members,) = r.take("B")
            for _ in range(members):
                mflag, _mid, count = r.take("BII")
                _add(parts, mflag, _nodes(r, count))
        else:
            (count,) = r.take("I")
            _add(parts, flag, _nodes(r, count))
    return [g for g in (_geometry(p) for p in placemarks) if g]


def _add(parts, flag, coords):
    if flag == LINESTRING:
        parts.append(("line", coords))
    elif flag in (LINEARRING, OUTER):
        if coords and coords[0] != coords[-1]:
            coords.append(coords[0])
        parts.append(("polygon", [coords]))
    elif flag == INNER and parts and parts[-1][0] == "polygon":
        if coords and coords[0] != coords[-1]:
            coords.append(coords[0])
        parts[-1][1].append(coords)


def _geometry(parts):
    lines = [c for kind, c in parts if kind == "line" and len(c) >= 2]
    polygons = [rings for kind, rings in parts if kind == "polygon" and len(rings[0]) >= 4]
    if lines and not polygons:
        return ({"type": "LineString", "coordinates": lines[0]} if len(lines) == 1
                else {"type": "MultiLineString", "coordinates": lines})
    if polygons and not lines:
        return ({"type": "Polygon", "coordinates": polygons[0]} if len(polygons) == 1
                else {"type": "MultiPolygon", "coordinates": polygons})
    return None


if __name__ == "__main__":
    for g in read(sys.argv[1]):
        print(json.dumps({"type": "Feature", "properties": {}, "geometry": g}))
