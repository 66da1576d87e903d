#!/usr/bin/env python3
"""Small MBTiles helpers for build-data.sh.

  mbtiles_tool.py finalize FILE [BOUNDS [KEY=VALUE ...]]
      Strip build-machine paths from tippecanoe's generator_options, set
      type=baselayer, set the KEY=VALUE metadata (e.g. attribution, generator:
      tilemaker writes neither), check format=pbf, VACUUM. With BOUNDS ("w,s,e,n"), the
      metadata bounds become the area where the data is complete (an
      extract's box), not tippecanoe's box of every feature: ways that cross
      the extract's edge reach past it, but the sea, land use and the rest
      stop at it, and a viewer draws coarser data outside it.
  mbtiles_tool.py stats FILE
      Tiles and bytes per zoom, the largest tile (as z/x/y in XYZ order),
      metadata and the vector_layers with their fields.
  mbtiles_tool.py expect FILE Z X Y OUT_PREFIX
      Write the stored (gzip-compressed) tile bytes to OUT_PREFIX.mvt.gz and
      the tile decoded by mapbox-vector-tile (an implementation independent of
      tippecanoe) to OUT_PREFIX.json. X/Y are XYZ ("slippy map") numbers; the
      MBTiles row is the TMS one, 2^Z - 1 - Y.

  mbtiles_tool.py manifest FILE OUT.json
      Per zoom: the number of tiles, their stored bytes and a 64-bit FNV-1a hash of
      all stored tile bytes one after another, in x then y (XYZ) order. The tests
      check the shipped PMTiles archive (written by the pmtiles package, read by
      termmap's reader) against it: the tiles as tippecanoe wrote them, read here by
      SQLite.
  mbtiles_tool.py prune-ocean FILE MINZOOM
      Delete the tiles from MINZOOM on that hold nothing but one ocean polygon
      covering the whole tile (the same bytes everywhere in the open sea). A
      viewer that finds no tile draws the deepest ancestor it has, which is
      open sea there too, so nothing drawn changes and the file loses most of
      its tiles at high zoom.

finalize and stats use only the standard library; expect and prune-ocean need
the mapbox-vector-tile package (installed in the build's virtual environment).
"""
import gzip
import hashlib
import json
import os
import sqlite3
import sys


def finalize(path, bounds=None, *settings):
    db = sqlite3.connect(path)
    meta = dict(db.execute("SELECT name, value FROM metadata"))
    opts = meta.get("generator_options", "")
    clean = " ".join(os.path.basename(w) if "/" in w else w for w in opts.split())
    db.execute("UPDATE metadata SET value=? WHERE name='generator_options'", (clean,))
    db.execute("UPDATE metadata SET value='baselayer' WHERE name='type'")
    if bounds:
        w, s, e, n = (float(v) for v in bounds.split(","))
        text = "%.6f,%.6f,%.6f,%.6f" % (w, s, e, n)
        for k in ("bounds", "antimeridian_adjusted_bounds"):
            db.execute("UPDATE metadata SET value=? WHERE name=?", (text, k))
    for kv in settings:
        k, v = kv.split("=", 1)
        db.execute("DELETE FROM metadata WHERE name=?", (k,))
        db.execute("INSERT INTO metadata (name, value) VALUES (?, ?)", (k, v))
    if meta.get("format") != "pbf":
        raise SystemExit("%s: format is %r, not pbf" % (path, meta.get("format")))
    db.commit()
    db.execute("VACUUM")
    db.close()


def stats(path):
    db = sqlite3.connect(path)
    print("%s: %d bytes" % (os.path.basename(path), os.path.getsize(path)))
    total = 0
    for z, n, b, mx in db.execute("SELECT zoom_level, count(*), sum(length(tile_data)), "
                                  "max(length(tile_data)) FROM tiles GROUP BY zoom_level"):
        total += n
        print("  z%-2d %5d tiles %9d bytes, largest %6d" % (z, n, b, mx))
    z, x, row, size = db.execute("SELECT zoom_level, tile_column, tile_row, length(tile_data) "
                                 "FROM tiles ORDER BY length(tile_data) DESC LIMIT 1").fetchone()
    print("  total %d tiles; largest tile z%d/x%d/y%d (TMS row %d): %d bytes (%.1f KiB)"
          % (total, z, x, (1 << z) - 1 - row, row, size, size / 1024))
    meta = dict(db.execute("SELECT name, value FROM metadata"))
    for k in ("name", "format", "bounds", "minzoom", "maxzoom", "attribution"):
        print("  %-11s %s" % (k, meta.get(k)))
    for layer in json.loads(meta["json"])["vector_layers"]:
        print("  layer %-20s z%s-%s fields: %s" % (layer["id"], layer["minzoom"], layer["maxzoom"],
                                                  ", ".join(sorted(layer["fields"]))))


def expect(path, z, x, y, prefix):
    import mapbox_vector_tile
    from importlib.metadata import version
    z, x, y = int(z), int(x), int(y)
    row = (1 << z) - 1 - y
    db = sqlite3.connect(path)
    r = db.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                   (z, x, row)).fetchone()
    if r is None:
        raise SystemExit("%s has no tile %d/%d/%d (TMS row %d)" % (path, z, x, y, row))
    data = r[0]
    with open(prefix + ".mvt.gz", "wb") as f:
        f.write(data)
    raw = gzip.decompress(data)
    tile = mapbox_vector_tile.decode(raw, default_options={"y_coord_down": True, "geojson": False})
    out = {
        "source": os.path.basename(path),
        "z": z, "x": x, "y": y, "tms_row": row,
        "stored_bytes": len(data), "stored_sha256": hashlib.sha256(data).hexdigest(),
        "mvt_bytes": len(raw), "mvt_sha256": hashlib.sha256(raw).hexdigest(),
        "decoder": "mapbox-vector-tile %s, y_coord_down=True, geojson=False" % version("mapbox-vector-tile"),
        "notes": "Coordinates are integer tile coordinates, y down, as in the MVT: 0..extent "
                 "inside the tile, negative or above extent in the buffer around it. "
                 "id 0 means the feature has none (tippecanoe writes no ids). "
                 "Feature type: 1 point, 2 line, 3 polygon. The decoder closes polygon rings "
                 "(repeats the first point) and groups rings into (Multi)Polygons by winding.",
        "layers": {},
    }
    for name in sorted(tile):
        layer = tile[name]
        out["layers"][name] = {"extent": layer["extent"], "version": layer["version"],
                               "features": layer["features"]}
    # one feature per line: small diffs, still valid JSON
    with open(prefix + ".json", "w", encoding="utf-8") as f:
        head = {k: v for k, v in out.items() if k != "layers"}
        f.write(json.dumps(head, ensure_ascii=False, indent=1)[:-2] + ',\n "layers": {\n')
        names = list(out["layers"])
        for i, name in enumerate(names):
            layer = out["layers"][name]
            f.write('  %s: {"extent": %d, "version": %d, "features": [\n'
                    % (json.dumps(name), layer["extent"], layer["version"]))
            feats = layer["features"]
            for j, feat in enumerate(feats):
                f.write("   " + json.dumps(feat, ensure_ascii=False, separators=(",", ":"))
                        + ("," if j < len(feats) - 1 else "") + "\n")
            f.write("  ]}" + ("," if i < len(names) - 1 else "") + "\n")
        f.write(" }\n}\n")
    json.load(open(prefix + ".json", encoding="utf-8"))  # must parse
    print("  %s: z%d/x%d/y%d (TMS row %d) %d bytes stored; layers %s" % (
        os.path.basename(prefix), z, x, y, row, len(data),
        ", ".join("%s %d" % (n, len(out["layers"][n]["features"])) for n in names)))


def manifest(path, out_path):
    db = sqlite3.connect(path)
    zooms = {}
    total = 0
    for (z,) in db.execute("SELECT DISTINCT zoom_level FROM tiles ORDER BY 1").fetchall():
        h = 0xcbf29ce484222325
        count = size = 0
        # XYZ y ascending is TMS row descending
        for (data,) in db.execute("SELECT tile_data FROM tiles WHERE zoom_level=? "
                                  "ORDER BY tile_column, tile_row DESC", (z,)):
            for b in bytes(data):
                h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
            count += 1
            size += len(data)
        zooms[str(z)] = {"tiles": count, "bytes": size, "fnv1a64": "%016x" % h}
        total += count
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"source": os.path.basename(path), "tiles": total,
                   "order": "zoom, then x, then y (XYZ), stored (gzip) bytes concatenated",
                   "zooms": zooms}, f, indent=1, sort_keys=True)
        f.write("\n")
    print("  %s: %d tiles" % (os.path.basename(out_path), total))


def _is_open_sea(data):
    """True when the gzip MVT holds only layer water with one class=ocean polygon whose
    single ring is a rectangle covering the tile (0..extent) and perhaps its buffer."""
    import mapbox_vector_tile
    tile = mapbox_vector_tile.decode(gzip.decompress(data),
                                     default_options={"y_coord_down": True, "geojson": False})
    if list(tile) != ["water"] or len(tile["water"]["features"]) != 1:
        return False
    extent = tile["water"]["extent"]
    f = tile["water"]["features"][0]
    g = f["geometry"]
    if f["properties"] != {"class": "ocean"} or g["type"] != "Polygon" or len(g["coordinates"]) != 1:
        return False
    ring = g["coordinates"][0]
    xs = {p[0] for p in ring}
    ys = {p[1] for p in ring}
    return (len(xs) == 2 and len(ys) == 2 and min(xs) <= 0 and max(xs) >= extent
            and min(ys) <= 0 and max(ys) >= extent)


def prune_ocean(path, minzoom):
    """tippecanoe's MBTiles keep each distinct tile once (table images) and map every
    z/x/row to one (table map; tiles is a view): open-sea rows go from map, then the
    images no row uses."""
    db = sqlite3.connect(path)
    minzoom = int(minzoom)
    doomed = []
    for z, tile_id, data in db.execute("SELECT zoom_level, tile_id, tile_data FROM images "
                                       "WHERE zoom_level >= ?", (minzoom,)):
        if len(data) <= 200 and _is_open_sea(bytes(data)):  # open sea: about 80 bytes
            doomed.append((z, tile_id))
    removed = 0
    for z, tile_id in doomed:
        removed += db.execute("DELETE FROM map WHERE zoom_level=? AND tile_id=?",
                              (z, tile_id)).rowcount
        db.execute("DELETE FROM images WHERE zoom_level=? AND tile_id=?", (z, tile_id))
    db.commit()
    db.execute("VACUUM")
    db.close()
    print("  %s: removed %d open-sea tiles at zoom %d and above"
          % (os.path.basename(path), removed, minzoom))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"finalize": finalize, "stats": stats, "expect": expect,
     "manifest": manifest, "prune-ocean": prune_ocean}[cmd](*args)
