"""Writes a PMTiles v3 archive from an MBTiles file with the `pmtiles` package
(pinned in requirements-tools.txt): an implementation independent of termmap's
reader, so the committed archive tests it.

Usage: python pmtiles_tool.py convert IN.mbtiles OUT.pmtiles [LEAF_SIZE]

LEAF_SIZE (optional): write leaf directories of that many entries even when the
root directory alone would fit in 16 KiB. The package's own layout (leaves of
4,096 entries or more) is kept otherwise; a small fixture given a small leaf
size is laid out as a planet is, root -> leaves -> tiles, at a scale tests can
commit.

Like pmtiles.convert.mbtiles_to_pmtiles (whose header logic it reuses), but the
MBTiles `json` metadata row (vector_layers, tilestats) is merged into the
top-level metadata object, as the PMTiles v3 spec asks for vector tiles and as
go-pmtiles does. Tiles are written in Hilbert order, byte for byte as stored
in the MBTiles file (gzip MVT), so identical tiles are deduplicated.
"""
import json
import sqlite3
import sys

from pmtiles.convert import mbtiles_to_header_json
from pmtiles.tile import zxy_to_tileid
import pmtiles.writer
from pmtiles.writer import write


def force_leaves(leaf_size):
    """Makes the package's writer lay out leaves of `leaf_size` entries."""

    def optimize(entries, target_root_len):
        root, leaves, count = pmtiles.writer.build_roots_leaves(entries, leaf_size)
        assert len(root) < target_root_len
        return root, leaves, count

    pmtiles.writer.optimize_directories = optimize


def convert(src, dst):
    db = sqlite3.connect(src)
    meta = dict(db.execute("SELECT name, value FROM metadata"))
    ids = []
    for z, x, row in db.execute("SELECT zoom_level, tile_column, tile_row FROM tiles"):
        y = (1 << z) - 1 - row
        ids.append((zxy_to_tileid(z, x, y), z, x, row))
    ids.sort()
    header, _ = mbtiles_to_header_json(meta)
    metadata = {k: v for k, v in meta.items() if k != "json"}
    if "json" in meta:
        metadata.update(json.loads(meta["json"]))
    with write(dst) as writer:
        for tile_id, z, x, row in ids:
            (data,) = db.execute(
                "SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                (z, x, row),
            ).fetchone()
            writer.write_tile(tile_id, bytes(data))
        writer.finalize(header, metadata)
    db.close()
    print(f"  {dst}: {len(ids)} tiles")


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5) or sys.argv[1] != "convert":
        sys.exit(__doc__)
    if len(sys.argv) == 5:
        force_leaves(int(sys.argv[4]))
    convert(sys.argv[2], sys.argv[3])
