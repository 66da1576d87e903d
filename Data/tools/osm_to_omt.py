#!/usr/bin/env python3
"""Map an OpenStreetMap extract (Monaco) to OpenMapTiles-style layers and
fields, as one GeoJSON-sequence file for tippecanoe (monaco.mbtiles).

Input is what Debian's osmium-tool makes of the PBF:
  RAW.geojsonl   `osmium export -f geojsonseq -c osmium-export.json -n`
                 (all objects, with "@type" and "@id"; closed ways with area
                 tags as polygons, everything else as lines or points)
  RELS.opl       `osmium cat -t relation -f opl` (to know which ways belong
                 to which administrative boundary relation)
BBOX is the extract's bounding box "w,s,e,n" (the PBF header box); the sea is
built inside it from the natural=coastline ways.

Layers (OpenMapTiles names; a simplified subset of its mapping):
  transportation       class, subclass, brunnel, oneway, ramp, service, layer
  transportation_name  class, subclass, name, name_en, ref
  building             render_height, render_min_height
  water                class (ocean, lake, pond, river, dock, swimming_pool), intermittent, brunnel
  waterway             class, name, brunnel, intermittent
  landcover            class (grass, wood, sand, wetland, farmland, rock, ice), subclass
  landuse              class (residential, commercial, ...)
  park                 class, name
  boundary             admin_level, maritime, disputed
  poi                  class, subclass, name, name_en, rank
  place                class, name, name_en, rank, capital

Only the Python standard library is used.
Usage: osm_to_omt.py RAW.geojsonl RELS.opl BBOX OUT.geojsonl
"""
import json
import re
import sys

# --------------------------------------------------------------------------
# OpenMapTiles-like mappings

ROAD_CLASS = {
    "motorway": "motorway", "motorway_link": "motorway",
    "trunk": "trunk", "trunk_link": "trunk",
    "primary": "primary", "primary_link": "primary",
    "secondary": "secondary", "secondary_link": "secondary",
    "tertiary": "tertiary", "tertiary_link": "tertiary",
    "unclassified": "minor", "residential": "minor", "living_street": "minor", "road": "minor",
    "service": "service", "track": "track",
    "busway": "busway", "bus_guideway": "busway",
    "raceway": "raceway",
    "pedestrian": "path", "footway": "path", "path": "path", "cycleway": "path",
    "steps": "path", "bridleway": "path", "corridor": "path",
}
RAIL_CLASS = {
    "rail": "rail", "narrow_gauge": "rail", "preserved": "rail", "funicular": "rail",
    "subway": "transit", "light_rail": "transit", "monorail": "transit", "tram": "transit",
}
# minimum zoom of each transportation class (the file has zoom 10-14)
ROAD_MINZOOM = {
    "motorway": 10, "trunk": 10, "primary": 10, "secondary": 10, "rail": 10,
    "tertiary": 11, "minor": 12, "transit": 12, "busway": 12, "raceway": 12,
    "aerialway": 12, "ferry": 10, "service": 13, "track": 13, "path": 13,
}
NAME_MINZOOM = {"motorway": 12, "trunk": 12, "primary": 12, "secondary": 12,
                "tertiary": 12, "minor": 13}

LANDCOVER = {
    "farmland": ["farmland", "farm", "orchard", "vineyard", "plant_nursery"],
    "ice": ["glacier", "ice_shelf"],
    "wood": ["wood", "forest"],
    "rock": ["bare_rock", "scree"],
    "grass": ["fell", "flowerbed", "grassland", "heath", "scrub", "shrubbery", "tundra", "grass",
              "meadow", "allotments", "park", "village_green", "recreation_ground", "garden",
              "golf_course"],
    "wetland": ["wetland", "bog", "swamp", "wet_meadow", "marsh", "reedbed", "saltern",
                "tidalflat", "saltmarsh", "mangrove"],
    "sand": ["beach", "sand", "dune"],
}
LANDCOVER_CLASS = {sub: cls for cls, subs in LANDCOVER.items() for sub in subs}

LANDUSE_CLASSES = {
    "landuse": ["railway", "cemetery", "military", "residential", "commercial", "industrial",
                "garages", "retail", "quarry", "religious", "construction", "brownfield",
                "greenfield", "education"],
    "amenity": ["bus_station", "school", "university", "kindergarten", "college", "library",
                "hospital", "grave_yard"],
    "leisure": ["stadium", "pitch", "playground", "track", "marina", "sports_centre"],
    "tourism": ["theme_park", "zoo"],
    "waterway": ["dam"],
}
LANDUSE_MINZOOM = {"pitch": 13, "playground": 13, "track": 13, "sports_centre": 13}

PARK_CLASSES = {"boundary": ["national_park", "protected_area"],
                "leisure": ["nature_reserve"]}

# poi: class <- subclass (OpenMapTiles poi class mapping, abridged)
POI_CLASS_OF = {}
for _cls, _subs in {
    "shop": ["accessories", "antiques", "beauty", "bed", "boutique", "camera", "carpet", "charity",
             "chemist", "chocolate", "coffee", "computer", "convenience", "confectionery",
             "copyshop", "cosmetics", "garden_centre", "doityourself", "erotic", "electronics",
             "fabric", "florist", "frozen_food", "furniture", "video_games", "video", "general",
             "gift", "hardware", "hearing_aids", "hifi", "interior_decoration", "jewelry",
             "kiosk", "locksmith", "lamps", "mall", "massage", "motorcycle", "mobile_phone",
             "newsagent", "optician", "outdoor", "paint", "perfumery", "perfume", "pet", "photo",
             "second_hand", "shoes", "sports", "stationery", "tailor", "tattoo", "ticket",
             "tobacco", "toys", "travel_agency", "watches", "weapons", "wholesale"],
    "town_hall": ["townhall", "public_building", "courthouse", "community_centre"],
    "golf": ["golf", "golf_course", "miniature_golf"],
    "fast_food": ["fast_food", "food_court"],
    "park": ["park", "bbq"],
    "bus": ["bus_stop", "bus_station"],
    "railway": ["halt", "station", "tram_stop", "subway"],
    "entrance": ["subway_entrance", "train_station_entrance"],
    "campsite": ["camp_site", "caravan_site"],
    "laundry": ["laundry", "dry_cleaning"],
    "grocery": ["supermarket", "deli", "delicatessen", "department_store", "greengrocer",
                "marketplace"],
    "library": ["books", "library"],
    "college": ["university", "college"],
    "lodging": ["hotel", "motel", "bed_and_breakfast", "guest_house", "hostel", "chalet",
                "alpine_hut", "dormitory"],
    "post": ["post_box", "post_office", "parcel_locker"],
    "school": ["school", "kindergarten"],
    "alcohol_shop": ["alcohol", "beverages", "wine"],
    "bar": ["bar", "nightclub"],
    "harbor": ["marina", "dock"],
    "car": ["car", "car_repair", "car_parts", "taxi"],
    "hospital": ["hospital", "nursing_home", "clinic"],
    "cemetery": ["grave_yard", "cemetery"],
    "attraction": ["attraction", "viewpoint"],
    "beer": ["beer", "pub"],
    "music": ["music", "musical_instrument"],
    "stadium": ["american_football", "stadium", "soccer"],
    "art_gallery": ["art", "artwork", "gallery", "arts_centre"],
    "clothing_store": ["bag", "clothes"],
    "swimming": ["swimming_area", "swimming"],
    "castle": ["castle", "ruins"],
}.items():
    for _s in _subs:
        POI_CLASS_OF[_s] = _cls
# Unnamed objects are POIs only if they are one of these.
POI_UNNAMED_OK = {"atm", "toilets", "drinking_water", "pharmacy", "parking", "fuel",
                  "bicycle_rental", "post_box", "bus_stop", "station", "tram_stop", "halt",
                  "subway_entrance", "taxi", "charging_station", "hospital", "police",
                  "viewpoint", "information", "telephone", "bank", "cafe", "restaurant"}
POI_TOP = {"attraction", "museum", "railway", "hospital", "town_hall", "castle", "stadium",
           "college", "zoo", "theatre", "cinema", "place_of_worship", "art_gallery", "harbor",
           "monument", "memorial", "aquarium", "viewpoint", "casino", "embassy", "police"}
POI_KEYS = ["amenity", "tourism", "shop", "historic", "leisure", "railway", "highway",
            "aerialway", "office", "waterway"]
POI_VALUES = {  # keys whose values are POIs only when listed here
    "leisure": {"marina", "sports_centre", "stadium", "water_park", "golf_course",
                "miniature_golf", "swimming_pool", "swimming_area", "fitness_centre",
                "playground", "dog_park", "garden", "park"},
    "railway": {"station", "halt", "tram_stop", "subway_entrance", "train_station_entrance"},
    "highway": {"bus_stop"},
    "aerialway": {"station"},
    "waterway": {"dock"},
}
POI_SKIP = {"bench", "waste_basket", "parking_space", "vending_machine", "recycling",
            "waste_disposal", "bicycle_parking", "motorcycle_parking", "grit_bin", "clock",
            "shelter", "yes", "no", "street_lamp", "fountain", "parking_entrance",
            "loading_dock", "table", "letter_box", "hunting_stand", "smoking_area"}

PLACE_MINZOOM = {"country": 10, "state": 10, "city": 10, "town": 10, "village": 11,
                 "suburb": 12, "quarter": 13, "neighbourhood": 13, "hamlet": 13,
                 "island": 12, "islet": 14, "isolated_dwelling": 14, "locality": 14,
                 "square": 14, "farm": 14}
PLACE_RANK = {"country": 1, "state": 2, "city": 3, "town": 4, "village": 5, "suburb": 6,
              "island": 6, "quarter": 7, "neighbourhood": 8, "hamlet": 8}


# --------------------------------------------------------------------------
# geometry helpers (lon/lat, small areas only)

def ring_area(r):
    return 0.5 * sum(r[i][0] * r[i + 1][1] - r[i + 1][0] * r[i][1] for i in range(len(r) - 1))


def point_in_ring(pt, r):
    x, y = pt
    inside = False
    for i in range(len(r) - 1):
        (x1, y1), (x2, y2) = r[i], r[i + 1]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def polygons_of(geom):
    if geom["type"] == "Polygon":
        return [geom["coordinates"]]
    if geom["type"] == "MultiPolygon":
        return geom["coordinates"]
    return []


def label_point(geom):
    """A point inside the largest polygon: the middle of the widest interior
    stretch of the horizontal line through the middle of its box."""
    polys = polygons_of(geom)
    if not polys:
        return None
    poly = max(polys, key=lambda p: abs(ring_area(p[0])))
    outer = poly[0]
    ys = [p[1] for p in outer]
    best = None
    for frac in (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8):
        y = min(ys) + (max(ys) - min(ys)) * frac
        xs = []
        for r in poly:
            for i in range(len(r) - 1):
                (x1, y1), (x2, y2) = r[i], r[i + 1]
                if (y1 > y) != (y2 > y):
                    xs.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
        xs.sort()
        for i in range(0, len(xs) - 1, 2):
            w = xs[i + 1] - xs[i]
            if best is None or w > best[0]:
                best = (w, [round((xs[i] + xs[i + 1]) / 2, 7), round(y, 7)])
        if best:
            break
    return {"type": "Point", "coordinates": best[1]} if best else \
        {"type": "Point", "coordinates": outer[0]}


def chain_lines(lines):
    """Join linestrings that share end points into longest chains."""
    lines = [list(map(tuple, l)) for l in lines]
    closed = [l for l in lines if l[0] == l[-1]]
    open_ = [l for l in lines if l[0] != l[-1]]
    changed = True
    while changed:
        changed = False
        for i, a in enumerate(open_):
            for j, b in enumerate(open_):
                if i != j and a[-1] == b[0]:
                    open_[i] = a + b[1:]
                    del open_[j]
                    changed = True
                    break
            if changed:
                break
    for l in open_[:]:
        if l[0] == l[-1]:
            open_.remove(l)
            closed.append(l)
    return open_, closed


def sea_polygon(coast_lines, bbox):
    """Sea inside bbox from OSM coastline ways (land on the left, sea on the
    right). Each open chain is extended along its end directions to the box
    edge and closed along the box edge clockwise (so the sea is on the right).
    Closed chains inside become holes (islands). Returns a GeoJSON geometry or
    None when the coastline cannot be closed this simple way."""
    w, s, e, n = bbox
    open_, closed = chain_lines(coast_lines)
    if len(open_) != 1:
        return None
    chain = open_[0]

    def to_edge(p, q):
        """Follow the direction p->q from q until the box edge."""
        dx, dy = q[0] - p[0], q[1] - p[1]
        ts = []
        if dx > 0: ts.append((e - q[0]) / dx)
        if dx < 0: ts.append((w - q[0]) / dx)
        if dy > 0: ts.append((n - q[1]) / dy)
        if dy < 0: ts.append((s - q[1]) / dy)
        ts = [t for t in ts if t >= 0]
        if not ts:
            return None
        t = min(ts)
        return (min(e, max(w, q[0] + t * dx)), min(n, max(s, q[1] + t * dy)))

    def far_back(pts, k=6):
        return pts[min(k, len(pts) - 1)]

    end_edge = to_edge(far_back(chain[::-1]), chain[-1])
    start_edge = to_edge(far_back(chain), chain[0])
    if end_edge is None or start_edge is None:
        return None

    # position along the box boundary, clockwise from the north-west corner
    W, H = e - w, n - s
    def pos(p):
        x, y = p
        if abs(y - n) < 1e-12: return x - w
        if abs(x - e) < 1e-12: return W + (n - y)
        if abs(y - s) < 1e-12: return W + H + (e - x)
        return 2 * W + H + (y - s)
    corners = [(e, n), (e, s), (w, s), (w, n)]
    corner_pos = [W, W + H, 2 * W + H, 2 * W + 2 * H]
    a, b = pos(end_edge), pos(start_edge)
    if b <= a:
        b += 2 * W + 2 * H
    walk = []
    for k in range(8):
        cp = corner_pos[k % 4] + (2 * W + 2 * H) * (k // 4)
        if a < cp < b:
            walk.append(corners[k % 4])
    ring = chain + [end_edge] + walk + [start_edge, chain[0]]
    ring = [list(p) for p in ring]
    holes = [list(map(list, c)) for c in closed if point_in_ring(c[0], ring)]
    return {"type": "Polygon", "coordinates": [ring] + holes}


# --------------------------------------------------------------------------

def unescape_opl(s):
    return re.sub(r"%([0-9a-fA-F]+)%", lambda m: chr(int(m.group(1), 16)), s)


def read_boundary_relations(opl_path):
    """way id -> (lowest admin_level, relation is maritime)"""
    ways = {}
    with open(opl_path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split(" ")
            tags, members = {}, []
            for fld in fields:
                if fld.startswith("T") and len(fld) > 1:
                    for kv in fld[1:].split(","):
                        if "=" in kv:
                            k, v = kv.split("=", 1)
                            tags[unescape_opl(k)] = unescape_opl(v)
                elif fld.startswith("M") and len(fld) > 1:
                    members = fld[1:].split(",")
            if tags.get("boundary") != "administrative":
                continue
            try:
                level = int(tags.get("admin_level", ""))
            except ValueError:
                continue
            for m in members:
                if m.startswith("w"):
                    wid = int(m[1:].split("@", 1)[0])
                    ways[wid] = min(level, ways.get(wid, 99))
    return ways


def yes(v):
    return v in ("yes", "1", "true")


def brunnel(t):
    if yes(t.get("bridge", "no")) or t.get("bridge") in ("viaduct", "aqueduct", "boardwalk"):
        return "bridge"
    if yes(t.get("tunnel", "no")) or t.get("tunnel") in ("building_passage", "culvert") \
            or yes(t.get("covered", "no")):
        return "tunnel"
    if yes(t.get("ford", "no")):
        return "ford"
    return None


def names(t, props):
    if t.get("name"):
        props["name"] = t["name"]
    if t.get("name:en") and t.get("name:en") != t.get("name"):
        props["name_en"] = t["name:en"]
    return props


def num(v):
    try:
        x = float(str(v).replace("m", "").strip())
        return x
    except ValueError:
        return None


def main():
    raw_path, opl_path, bbox_s, out_path = sys.argv[1:5]
    bbox = tuple(float(x) for x in bbox_s.split(","))
    admin_ways = read_boundary_relations(opl_path)
    out = open(out_path, "w", encoding="utf-8")
    counts = {}
    coast = []
    building_points = []

    def emit(layer, geom, props, minzoom, maxzoom=14):
        f = {"type": "Feature", "tippecanoe": {"layer": layer, "minzoom": minzoom, "maxzoom": maxzoom},
             "properties": props, "geometry": geom}
        out.write(json.dumps(f, ensure_ascii=False, separators=(",", ":")) + "\n")
        counts[layer] = counts.get(layer, 0) + 1

    with open(raw_path, encoding="utf-8") as f:
        for line in f:
            line = line.strip().lstrip("\x1e")
            if not line:
                continue
            feat = json.loads(line)
            geom = feat.get("geometry")
            if not geom:
                continue
            t = dict(feat.get("properties") or {})
            otype, oid = t.pop("@type", None), t.pop("@id", None)
            gtype = geom["type"]
            is_line = gtype in ("LineString", "MultiLineString")
            is_area = gtype in ("Polygon", "MultiPolygon")
            is_point = gtype == "Point"

            # ---- boundary: ways of administrative relations (or tagged so)
            if is_line and otype == "way":
                level = admin_ways.get(oid, 99)
                if t.get("boundary") == "administrative" and t.get("admin_level", "").isdigit():
                    level = min(level, int(t["admin_level"]))
                if 2 <= level <= 10:
                    maritime = 1 if (yes(t.get("maritime", "no")) or t.get("natural") == "coastline"
                                     or t.get("boundary_type") == "maritime") else 0
                    disputed = 1 if (yes(t.get("disputed", "no")) or t.get("boundary") == "disputed") else 0
                    mz = 10 if level <= 4 else 12 if level <= 8 else 13
                    emit("boundary", geom, {"admin_level": level, "maritime": maritime,
                                            "disputed": disputed}, mz)

            if not t:
                continue

            # ---- coastline (kept for the sea polygon)
            if t.get("natural") == "coastline":
                if gtype == "LineString":
                    coast.append(geom["coordinates"])
                elif is_area:
                    for poly in polygons_of(geom):
                        coast.append(poly[0])
                continue

            # ---- transportation
            if is_line:
                cls = sub = None
                hw, rw = t.get("highway"), t.get("railway")
                if hw in ROAD_CLASS:
                    cls = ROAD_CLASS[hw]
                    sub = hw if cls in ("path",) else None
                elif rw in RAIL_CLASS:
                    cls, sub = RAIL_CLASS[rw], rw
                elif t.get("aerialway") and t["aerialway"] not in ("station", "pylon"):
                    cls, sub = "aerialway", t["aerialway"]
                elif t.get("route") == "ferry":
                    cls = "ferry"
                if cls:
                    p = {"class": cls}
                    if sub:
                        p["subclass"] = sub
                    b = brunnel(t)
                    if b:
                        p["brunnel"] = b
                    if hw and hw.endswith("_link"):
                        p["ramp"] = 1
                    ow = t.get("oneway")
                    if ow in ("yes", "1", "true") or t.get("junction") == "roundabout":
                        p["oneway"] = 1
                    elif ow == "-1":
                        p["oneway"] = -1
                    if cls == "service" and t.get("service"):
                        p["service"] = t["service"]
                    lay = t.get("layer", "0")
                    if lay.lstrip("-").isdigit() and int(lay) != 0:
                        p["layer"] = int(lay)
                    emit("transportation", geom, p, ROAD_MINZOOM[cls])
                    if t.get("name") or t.get("ref"):
                        q = names(t, {"class": cls})
                        if sub:
                            q["subclass"] = sub
                        if t.get("ref"):
                            q["ref"] = t["ref"]
                        emit("transportation_name", geom, q, NAME_MINZOOM.get(cls, 14))
                    continue

                # ---- waterway lines
                ww = t.get("waterway")
                if ww in ("river", "stream", "canal", "drain", "ditch"):
                    p = names(t, {"class": ww})
                    b = brunnel(t)
                    if b:
                        p["brunnel"] = b
                    if yes(t.get("intermittent", "no")):
                        p["intermittent"] = 1
                    emit("waterway", geom, p, 12 if ww in ("river", "canal") else 13)
                    continue

            # ---- areas
            if is_area:
                if t.get("building") and t["building"] != "no":
                    h = num(t.get("height", "")) if t.get("height") else None
                    lv = num(t.get("building:levels", "")) if t.get("building:levels") else None
                    mh = num(t.get("min_height", "")) if t.get("min_height") else None
                    height = h if h is not None else (lv * 3.66 if lv is not None else 5)
                    p = {"render_height": max(1, int(round(height))),
                         "render_min_height": int(round(mh)) if mh is not None else 0}
                    emit("building", geom, p, 13)
                    lp = label_point(geom)
                    if lp:
                        building_points.append(lp["coordinates"])

                water_cls = None
                if t.get("natural") == "water" or t.get("landuse") in ("reservoir", "basin") \
                        or t.get("waterway") in ("riverbank", "dock"):
                    wv = t.get("water", "")
                    water_cls = ("river" if wv in ("river", "canal", "stream") or t.get("waterway") == "riverbank"
                                 else "dock" if t.get("waterway") == "dock" or wv == "dock"
                                 else "pond" if wv == "pond" else "lake")
                elif t.get("leisure") == "swimming_pool":
                    water_cls = "swimming_pool"
                if water_cls:
                    p = {"class": water_cls}
                    if yes(t.get("intermittent", "no")):
                        p["intermittent"] = 1
                    b = brunnel(t)
                    if b in ("bridge", "tunnel"):
                        p["brunnel"] = b
                    emit("water", geom, p, 14 if water_cls == "swimming_pool" else 12)

                for key in ("landuse", "natural", "leisure", "wetland"):
                    v = t.get(key)
                    if v in LANDCOVER_CLASS:
                        emit("landcover", geom, {"class": LANDCOVER_CLASS[v], "subclass": v}, 11)
                        break
                for key, values in LANDUSE_CLASSES.items():
                    v = t.get(key)
                    if v in values:
                        emit("landuse", geom, {"class": v}, LANDUSE_MINZOOM.get(v, 11))
                        break
                for key, values in PARK_CLASSES.items():
                    v = t.get(key)
                    if v in values:
                        emit("park", geom, names(t, {"class": v}), 10)
                        break

            # ---- place
            if t.get("place") and (is_point or is_area) and t.get("name"):
                cls = t["place"]
                p = names(t, {"class": cls, "rank": PLACE_RANK.get(cls, 9)})
                # OpenMapTiles: admin level of the boundary it is the capital of (2-4)
                if t.get("capital") in ("yes", "2"):
                    p["capital"] = 2
                elif t.get("capital") in ("3", "4"):
                    p["capital"] = int(t["capital"])
                g = geom if is_point else label_point(geom)
                emit("place", g, p, PLACE_MINZOOM.get(cls, 14))
                continue

            # ---- poi (points, and label points of areas)
            if is_point or is_area:
                key = next((k for k in POI_KEYS if t.get(k)
                            and t[k] not in POI_SKIP
                            and (k not in POI_VALUES or t[k] in POI_VALUES[k])), None)
                if key and (t.get("name") or t[key] in POI_UNNAMED_OK):
                    sub = t[key].split(";")[0].strip()
                    cls = POI_CLASS_OF.get(sub, sub)
                    if key == "shop" and cls == sub and sub not in POI_CLASS_OF:
                        cls = "shop"
                    if key == "office":
                        cls = "office"
                    rank = 1 if (t.get("name") and (cls in POI_TOP or sub in POI_TOP)) else \
                        2 if t.get("name") else 3
                    p = names(t, {"class": cls, "subclass": sub, "rank": rank})
                    g = geom if is_point else label_point(geom)
                    emit("poi", g, p, 13 if rank == 1 else 14)

    # ---- sea from the coastline
    sea = sea_polygon(coast, bbox)
    if sea:
        emit("water", sea, {"class": "ocean"}, 10)
        inside = sum(1 for p in building_points if point_in_ring(p, sea["coordinates"][0])
                     and not any(point_in_ring(p, h) for h in sea["coordinates"][1:]))
        print("  sea polygon: %d points, %d island hole(s); building label points inside it: %d of %d"
              % (len(sea["coordinates"][0]), len(sea["coordinates"]) - 1, inside, len(building_points)))
    else:
        print("  sea polygon: coastline could not be closed; no ocean")
    out.close()
    for k in sorted(counts):
        print("  %-20s %6d features" % (k, counts[k]))


if __name__ == "__main__":
    main()
