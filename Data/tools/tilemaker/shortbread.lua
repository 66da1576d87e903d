-- A small tilemaker 2.2 profile writing OpenStreetMap data in the Shortbread 1.0 schema
-- (https://shortbread-tiles.org/schema/1.0/): the layers and attributes termmap's
-- `BasemapStyle.shortbread` draws, for test fixtures. Layer names, `kind` values and
-- attribute names are the specification's; zoom levels are simplified. Not a complete
-- implementation of the schema (no labels layers for water, no addresses, bridges, dams,
-- piers, aerialways, ferries or public transport).

function Set(list)
  local set = {}
  for _, l in ipairs(list) do set[l] = true end
  return set
end

node_keys = { "place", "amenity", "shop", "tourism", "leisure", "historic" }

placeKinds = Set { "city", "town", "village", "hamlet", "suburb", "quarter", "neighbourhood",
                   "isolated_dwelling", "farm", "locality", "island" }
streetKinds = { motorway = 10, trunk = 10, primary = 10, secondary = 11, tertiary = 12,
                unclassified = 12, residential = 12, living_street = 13, pedestrian = 13,
                busway = 13, service = 13, track = 14, footway = 14, steps = 14, path = 14,
                cycleway = 14, bridleway = 14 }
railKinds = { rail = 10, narrow_gauge = 10, light_rail = 11, tram = 11, subway = 11,
              funicular = 12, monorail = 12 }
waterKinds = { reservoir = "reservoir", basin = "basin" }
landKinds = Set { "forest", "grass", "meadow", "park", "garden", "allotments", "cemetery",
                  "recreation_ground", "golf_course", "village_green", "heath", "scrub",
                  "beach", "sand", "farmland", "farmyard", "orchard", "vineyard",
                  "plant_nursery", "greenfield", "brownfield", "grave_yard", "quarry",
                  "railway", "commercial", "industrial", "residential", "retail", "landfill",
                  "bare_rock", "wood", "playground", "pitch", "sports_centre" }
siteKinds = Set { "university", "college", "school", "hospital", "prison", "parking",
                  "bicycle_parking", "construction", "military" }
poiKeys = { "amenity", "shop", "tourism", "leisure", "historic" }

function SetNames(obj)
  obj:Attribute("name", obj:Find("name"))
  if obj:Holds("name:en") then obj:Attribute("name_en", obj:Find("name:en")) end
  if obj:Holds("name:de") then obj:Attribute("name_de", obj:Find("name:de")) end
end

function node_function(node)
  local place = node:Find("place")
  if placeKinds[place] and node:Holds("name") then
    local kind = place
    if node:Find("capital") == "yes" or node:Find("capital") == "2" then kind = "capital" end
    node:Layer("place_labels", false)
    node:Attribute("kind", kind)
    SetNames(node)
    local pop = tonumber(node:Find("population"))
    if pop then node:AttributeNumeric("population", pop) end
    if place == "suburb" or place == "quarter" or place == "neighbourhood" then node:MinZoom(12) end
    return
  end
  WritePOI(node, false)
end

function WritePOI(obj, centroid)
  if not obj:Holds("name") then return end
  for _, k in ipairs(poiKeys) do
    local v = obj:Find(k)
    if v ~= "" then
      if centroid then obj:LayerAsCentroid("pois") else obj:Layer("pois", false) end
      obj:Attribute(k, v)
      SetNames(obj)
      return
    end
  end
end

function relation_scan_function(relation)
  if relation:Find("type") == "boundary" and relation:Find("boundary") == "administrative" then
    relation:Accept()
  end
end

function way_function(way)
  local highway = way:Find("highway")
  local railway = way:Find("railway")
  local closed = way:IsClosed()

  -- boundaries: admin_level of the lowest-level relation the way belongs to
  local level = 99
  while true do
    local rel = way:NextRelation()
    if not rel then break end
    level = math.min(level, tonumber(way:FindInRelation("admin_level")) or 99)
  end
  if level <= 8 then
    way:Layer("boundaries", false)
    way:AttributeNumeric("admin_level", level)
    way:AttributeBoolean("maritime", way:Find("maritime") == "yes")
    way:AttributeBoolean("disputed", way:Find("disputed") == "yes")
    if level > 4 then way:MinZoom(12) end
  end

  -- streets (and railways, rail=true) and their labels
  local link = false
  local hw = highway
  if hw:sub(-5) == "_link" then hw = hw:sub(1, -6); link = true end
  local kind, minzoom, rail = nil, nil, false
  if streetKinds[hw] then kind = hw; minzoom = streetKinds[hw]
  elseif railKinds[railway] then kind = railway; minzoom = railKinds[railway]; rail = true end
  if kind and not (highway == "pedestrian" and closed and way:Find("area") == "yes") then
    way:Layer("streets", false)
    way:Attribute("kind", kind)
    way:AttributeBoolean("link", link)
    way:AttributeBoolean("rail", rail)
    way:AttributeBoolean("tunnel", way:Find("tunnel") == "yes" or way:Find("covered") == "yes")
    way:AttributeBoolean("bridge", way:Find("bridge") == "yes")
    if way:Holds("service") then way:Attribute("service", way:Find("service")) end
    way:MinZoom(minzoom)
    if (way:Holds("name") or way:Holds("ref")) and not rail then
      way:Layer("street_labels", false)
      way:Attribute("kind", kind)
      SetNames(way)
      if way:Holds("ref") then way:Attribute("ref", way:Find("ref")) end
      way:AttributeBoolean("tunnel", way:Find("tunnel") == "yes")
      way:AttributeBoolean("bridge", way:Find("bridge") == "yes")
      way:MinZoom(math.max(minzoom, 13))
    end
  end

  -- waterways
  local waterway = way:Find("waterway")
  if (waterway == "river" or waterway == "canal" or waterway == "stream" or waterway == "ditch")
      and not closed then
    way:Layer("water_lines", false)
    way:Attribute("kind", waterway)
    SetNames(way)
    return
  end

  if not closed then return end

  -- water polygons
  local natural, landuse, leisure = way:Find("natural"), way:Find("landuse"), way:Find("leisure")
  local wkind = nil
  if natural == "water" then
    if way:Find("water") == "river" then wkind = "river" else wkind = "water" end
  elseif natural == "glacier" then wkind = "glacier"
  elseif waterKinds[landuse] then wkind = waterKinds[landuse]
  elseif waterway == "riverbank" then wkind = "river"
  elseif waterway == "dock" then wkind = "dock"
  elseif waterway == "canal" then wkind = "canal"
  end
  if wkind then
    way:Layer("water_polygons", true)
    way:Attribute("kind", wkind)
    way:AttributeNumeric("way_area", math.floor(way:Area()))
    return
  end

  -- land, sites, buildings
  local lkind = landuse
  if not landKinds[lkind] then lkind = natural end
  if not landKinds[lkind] then lkind = leisure end
  if lkind == "wood" then lkind = "forest" end
  if landKinds[lkind] then
    way:Layer("land", true)
    way:Attribute("kind", lkind)
  end
  local skind = way:Find("amenity")
  if not siteKinds[skind] then skind = landuse end
  if siteKinds[skind] then
    way:Layer("sites", true)
    way:Attribute("kind", skind)
  end
  if way:Holds("building") and way:Find("building") ~= "no" then
    way:Layer("buildings", true)
  end
  WritePOI(way, true)
end

function attribute_function(attr, layer)
  return {}
end
