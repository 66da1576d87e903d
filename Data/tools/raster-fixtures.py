#!/usr/bin/python3
"""Rebuild the raster-tile test fixtures in Tests/RasterTilesTests/Fixtures.

Development time only (tests and the product never run this). Usage:

    bash Data/tools/raster-fixtures.sh

which installs Debian's python3-mapnik when it is missing, downloads the Monaco
extract (hash-checked, see data-packages.txt) and runs this script with the
system Python as `raster-fixtures.py MONACO.osm.pbf OUTPUT_DIR`.

Writes:
  monaco-z15-*.png, monaco-z16-*.png   256 px map tiles rendered by Mapnik
  monaco-z16-*.jpg                      the same z16 tile as JPEG (quality 85)
  monaco-z17-*@2x.png                   a 512 px tile (scale factor 2)
  geometry.png                          white 256 x 256, a black diagonal and rectangle
  palette.png, grey.png, rgba.png, rgb16.png, blocks.jpg   decoder fixtures with
                                        known pixel values (written by hand below)
"""

import math
import os
import struct
import sys
import zlib

import mapnik

PBF, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)

# An OpenStreetMap-Carto-like palette, so the tiles look like what tile servers send.
STYLE = """<?xml version="1.0" encoding="utf-8"?>
<Map srs="epsg:3857" background-color="#f2efe9">
  <Style name="landuse">
    <Rule><Filter>[leisure] = 'park' or [leisure] = 'garden'</Filter>
      <PolygonSymbolizer fill="#c8facc"/></Rule>
    <Rule><Filter>[landuse] = 'grass' or [landuse] = 'forest' or [natural] = 'wood' or [natural] = 'scrub'</Filter>
      <PolygonSymbolizer fill="#add19e"/></Rule>
    <Rule><Filter>[landuse] = 'residential'</Filter>
      <PolygonSymbolizer fill="#e0dfdf"/></Rule>
    <Rule><Filter>[landuse] = 'railway' or [landuse] = 'industrial'</Filter>
      <PolygonSymbolizer fill="#ebdbe8"/></Rule>
    <Rule><Filter>[natural] = 'water' or [leisure] = 'marina' or [landuse] = 'basin'</Filter>
      <PolygonSymbolizer fill="#aad3df"/></Rule>
    <Rule><Filter>[natural] = 'beach'</Filter>
      <PolygonSymbolizer fill="#fff1ba"/></Rule>
  </Style>
  <Style name="buildings">
    <Rule><Filter>[building] != ''</Filter>
      <PolygonSymbolizer fill="#d9d0c9"/>
      <LineSymbolizer stroke="#c4b6ab" stroke-width="0.7"/></Rule>
  </Style>
  <Style name="sea">
    <Rule><Filter>[other_tags].match('.*"natural"=&gt;"coastline".*')</Filter>
      <LineSymbolizer stroke="#7fb3c6" stroke-width="1.5"/></Rule>
  </Style>
  <Style name="casing">
    <Rule><Filter>[highway] = 'primary' or [highway] = 'secondary' or [highway] = 'tertiary'</Filter>
      <LineSymbolizer stroke="#a08060" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/></Rule>
    <Rule><Filter>[highway] = 'residential' or [highway] = 'unclassified' or [highway] = 'living_street' or [highway] = 'service'</Filter>
      <LineSymbolizer stroke="#bbbbbb" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/></Rule>
  </Style>
  <Style name="roads">
    <Rule><Filter>[highway] = 'primary'</Filter>
      <LineSymbolizer stroke="#fcd6a4" stroke-width="5.5" stroke-linecap="round" stroke-linejoin="round"/></Rule>
    <Rule><Filter>[highway] = 'secondary' or [highway] = 'tertiary'</Filter>
      <LineSymbolizer stroke="#f7fabf" stroke-width="5.5" stroke-linecap="round" stroke-linejoin="round"/></Rule>
    <Rule><Filter>[highway] = 'residential' or [highway] = 'unclassified' or [highway] = 'living_street' or [highway] = 'service'</Filter>
      <LineSymbolizer stroke="#ffffff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/></Rule>
    <Rule><Filter>[highway] = 'footway' or [highway] = 'path' or [highway] = 'pedestrian' or [highway] = 'steps'</Filter>
      <LineSymbolizer stroke="#fa8072" stroke-width="1" stroke-dasharray="2,2"/></Rule>
    <Rule><Filter>[railway] = 'rail'</Filter>
      <LineSymbolizer stroke="#707070" stroke-width="2"/></Rule>
  </Style>
  <Style name="labels">
    <Rule><Filter>[highway] = 'primary' or [highway] = 'secondary' or [highway] = 'tertiary' or [highway] = 'residential'</Filter>
      <TextSymbolizer face-name="DejaVu Sans Book" size="9" fill="#222222" halo-fill="#ffffff"
        halo-radius="1" placement="line" spacing="200">[name]</TextSymbolizer></Rule>
  </Style>
</Map>
"""


def layer(name, ogr_layer, styles):
    lyr = mapnik.Layer(name, "epsg:4326")
    lyr.datasource = mapnik.Ogr(file=PBF, layer=ogr_layer)
    for s in styles:
        lyr.styles.append(s)
    return lyr


def tile_bounds(z, x, y):
    """The tile's extent in Web Mercator metres."""
    half = 20037508.342789244
    size = 2 * half / (1 << z)
    minx = -half + x * size
    maxy = half - y * size
    return mapnik.Box2d(minx, maxy - size, minx + size, maxy)


def tile_at(lon, lat, z):
    n = 1 << z
    x = int((lon + 180) / 360 * n)
    r = math.radians(lat)
    y = int((1 - math.log(math.tan(r) + 1 / math.cos(r)) / math.pi) / 2 * n)
    return x, y


def render(z, x, y, scale=1):
    size = 256 * scale
    m = mapnik.Map(size, size)
    mapnik.load_map_from_string(m, STYLE)
    m.layers.append(layer("landuse", "multipolygons", ["landuse"]))
    m.layers.append(layer("buildings", "multipolygons", ["buildings"]))
    m.layers.append(layer("sea", "lines", ["sea"]))
    m.layers.append(layer("roads", "lines", ["casing", "roads", "labels"]))
    m.zoom_to_box(tile_bounds(z, x, y))
    im = mapnik.Image(size, size)
    mapnik.render(m, im, scale)
    return im


# Monaco-Ville and the port (z15), Monte Carlo (z16, PNG and JPEG), the port at z17 @2x.
for (lon, lat, z, scale, fmt) in [
    (7.4210, 43.7335, 15, 1, "png"),
    (7.4260, 43.7395, 16, 1, "png"),
    (7.4260, 43.7395, 16, 1, "jpeg85"),
    (7.4230, 43.7350, 17, 2, "png"),
]:
    x, y = tile_at(lon, lat, z)
    im = render(z, x, y, scale)
    suffix = "@2x" if scale == 2 else ""
    ext = "jpg" if fmt.startswith("jpeg") else "png"
    path = os.path.join(OUT, f"monaco-z{z}-{x}-{y}{suffix}.{ext}")
    im.save(path, fmt if ext == "jpg" else "png32")
    print(path, os.path.getsize(path))


# --- hand-written PNGs with known pixel values -------------------------------------------


def chunk(kind, data):
    c = struct.pack(">I", len(data)) + kind + data
    return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(path, width, height, bit_depth, color_type, rows, extra=b""):
    """rows: a list of bytes objects, each one scanline without its filter byte."""
    raw = b"".join(b"\x00" + r for r in rows)
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)
    print(path, len(png))


# geometry.png: white, a black diagonal from (0,0) to (255,255) (pixel (i,i)), and a black
# filled rectangle x 160..223, y 32..63. 8-bit greyscale.
rows = []
for y in range(256):
    r = bytearray([255] * 256)
    r[y] = 0
    if 32 <= y <= 63:
        for x in range(160, 224):
            r[x] = 0
    rows.append(bytes(r))
write_png(os.path.join(OUT, "geometry.png"), 256, 256, 8, 0, rows)

# palette.png: 4 x 2, 2-bit palette, with a tRNS entry making index 3 half transparent.
plte = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30])
trns = bytes([255, 255, 255, 128])
idx = [[0, 1, 2, 3], [3, 2, 1, 0]]
rows = [bytes([(r[0] << 6) | (r[1] << 4) | (r[2] << 2) | r[3]]) for r in idx]
write_png(os.path.join(OUT, "palette.png"), 4, 2, 2, 3, rows,
          chunk(b"PLTE", plte) + chunk(b"tRNS", trns))

# grey.png: 3 x 1, 8-bit grey 0, 128, 255.
write_png(os.path.join(OUT, "grey.png"), 3, 1, 8, 0, [bytes([0, 128, 255])])

# rgba.png: 2 x 2 RGBA.
write_png(os.path.join(OUT, "rgba.png"), 2, 2, 8, 6, [
    bytes([255, 0, 0, 255, 0, 255, 0, 128]),
    bytes([0, 0, 255, 0, 200, 100, 50, 255]),
])

# rgb16.png: 2 x 1, 16 bits per channel: (0x1234, 0x8080, 0xFFFF), (0, 0x00FF, 0xFF00).
write_png(os.path.join(OUT, "rgb16.png"), 2, 1, 16, 2, [
    struct.pack(">6H", 0x1234, 0x8080, 0xFFFF, 0x0000, 0x00FF, 0xFF00)])

# blocks.jpg: 32 x 16, two 16 x 16 solid blocks (red-ish left, grey right), quality 95.
im = mapnik.Image(32, 16)
for yy in range(16):
    for xx in range(32):
        im.set_pixel(xx, yy, mapnik.Color(200, 40, 40) if xx < 16 else mapnik.Color(128, 128, 128))
p = os.path.join(OUT, "blocks.jpg")
im.save(p, "jpeg95")
print(p, os.path.getsize(p))
