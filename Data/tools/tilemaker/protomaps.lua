-- A small tilemaker 2.2 profile writing OpenStreetMap data as the Protomaps basemap's
-- layers, version 4 (https://docs.protomaps.com/basemaps/layers): the layers and tags
-- termmap's `BasemapStyle.protomaps` draws, for test fixtures. Layer names, `kind` and
-- `kind_detail` values, `min_zoom`, `population_rank` and the name tags are the
-- specification's; the choice of zoom levels is simplified (Protomaps' own tiles are made
-- by its Planetiler profile). `earth` and the ocean come from osmcoastline's land and water
-- polygons. No landcover (Protomaps takes it from Daylight, below zoom 8), transit or
-- physical points.

function Set(list)
  local set = {}
  for _, l in ipairs(list) do set[l] = true end
  return set
end

node_keys = { "place", "amenity", "shop", "tourism", "leisure", "historic", "railway" }

-- kind, kind_detail and min_zoom of OSM places
placeKinds = { city = { "locality", 4 }, town = { "locality", 7 }, village = { "locality", 10 },
               hamlet = { "locality", 12 }, suburb = { "neighbourhood", 11 },
               quarter = { "neighbourhood", 12 }, neighbourhood = { "neighbourhood", 13 } }
-- Protomaps road kinds from OSM highway values, with min_zoom
roadKinds = { motorway = { "highway", 3 }, trunk = { "major_road", 6 },
              primary = { "major_road", 7 }, secondary = { "major_road", 9 },
              tertiary = { "major_road", 9 }, unclassified = { "minor_road", 12 },
              residential = { "minor_road", 12 }, living_street = { "minor_road", 12 },
              road = { "minor_road", 12 }, service = { "minor_road", 13 },
              pedestrian = { "path", 12 }, track = { "path", 12 }, footway = { "path", 14 },
              path = { "path", 14 }, steps = { "path", 14 }, cycleway = { "path", 14 },
              bridleway = { "path", 14 }, corridor = { "path", 14 } }
railKinds = Set { "rail", "narrow_gauge", "light_rail", "tram", "subway", "funicular",
                  "monorail" }
landuseKinds = Set { "park", "garden", "cemetery", "grass", "forest", "wood", "residential",
                     "commercial", "industrial", "retail", "railway", "school", "university",
                     "college", "hospital", "pitch", "playground", "stadium", "marina",
                     "beach", "zoo", "recreation_ground", "golf_course", "military",
                     "nature_reserve", "pedestrian", "pier", "platform" }
poiKeys = { "amenity", "shop", "tourism", "leisure", "historic", "railway" }

function SetNames(obj)
  obj:Attribute("name", obj:Find("name"))
  if obj:Holds("name:en") then obj:Attribute("name:en", obj:Find("name:en")) end
end

function node_function(node)
  local place = node:Find("place")
  local pk = placeKinds[place]
  if place == "country" then pk = { "country", 0 } end
  if pk and node:Holds("name") then
    node:Layer("places", false)
    node:Attribute("kind", pk[1])
    node:Attribute("kind_detail", place)
    node:AttributeNumeric("min_zoom", pk[2])
    SetNames(node)
    local pop = tonumber(node:Find("population")) or 0
    node:AttributeNumeric("population", pop)
    -- Protomaps' population_rank: 0 (none) to 15 (over a billion), more is bigger
    local rank = 0
    for i, limit in ipairs({ 1, 200, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000,
                             500000, 1000000, 5000000, 10000000, 1000000000 }) do
      if pop >= limit then rank = i end
    end
    node:AttributeNumeric("population_rank", rank)
    if node:Find("capital") == "yes" or node:Find("capital") == "2" then
      node:Attribute("capital", "yes")
    end
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
      obj:Attribute("kind", v)
      obj:AttributeNumeric("min_zoom", 15)
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

  local level = 99
  while true do
    local rel = way:NextRelation()
    if not rel then break end
    level = math.min(level, tonumber(way:FindInRelation("admin_level")) or 99)
  end
  if level <= 8 then
    way:Layer("boundaries", false)
    local kind = "locality"
    if level <= 2 then kind = "country" elseif level <= 4 then kind = "region"
    elseif level <= 6 then kind = "county" end
    way:Attribute("kind", kind)
    way:AttributeNumeric("kind_detail", level)
    way:AttributeNumeric("min_zoom", (level <= 4) and 0 or 10)
  end

  local link = false
  local hw = highway
  if hw:sub(-5) == "_link" then hw = hw:sub(1, -6); link = true end
  local rk = roadKinds[hw]
  if railKinds[railway] then rk = { "rail", 11 }; hw = railway end
  if rk and not (closed and way:Find("area") == "yes") then
    way:Layer("roads", false)
    way:Attribute("kind", rk[1])
    way:Attribute("kind_detail", hw)
    way:AttributeNumeric("min_zoom", rk[2])
    if link then way:AttributeBoolean("is_link", true) end
    if way:Find("bridge") == "yes" then way:AttributeBoolean("is_bridge", true) end
    if way:Find("tunnel") == "yes" then way:AttributeBoolean("is_tunnel", true) end
    SetNames(way)
    if way:Holds("ref") then way:Attribute("ref", way:Find("ref")) end
  end

  local waterway = way:Find("waterway")
  if (waterway == "river" or waterway == "canal" or waterway == "stream"
      or waterway == "ditch" or waterway == "drain") and not closed then
    way:Layer("water", false)
    way:Attribute("kind", waterway)
    way:AttributeNumeric("min_zoom", 12)
    SetNames(way)
    return
  end

  if not closed then return end

  local natural, landuse, leisure = way:Find("natural"), way:Find("landuse"), way:Find("leisure")
  local wkind = nil
  if natural == "water" then wkind = (way:Find("water") == "river") and "river" or "lake"
  elseif landuse == "reservoir" or landuse == "basin" then wkind = "lake"
  elseif waterway == "riverbank" then wkind = "river"
  elseif waterway == "dock" then wkind = "water"
  elseif leisure == "swimming_pool" then wkind = "swimming_pool"
  end
  if wkind then
    way:Layer("water", true)
    way:Attribute("kind", wkind)
    way:AttributeNumeric("min_zoom", 12)
    SetNames(way)
    return
  end

  local lkind = nil
  for _, v in ipairs({ leisure, landuse, way:Find("amenity"), natural, highway,
                       way:Find("man_made"), way:Find("tourism") }) do
    if landuseKinds[v] then lkind = v; break end
  end
  if lkind then
    if lkind == "wood" then lkind = "forest" end
    way:Layer("landuse", true)
    way:Attribute("kind", lkind)
    way:AttributeNumeric("min_zoom", 11)
  end
  if way:Holds("building") and way:Find("building") ~= "no" then
    way:Layer("buildings", true)
    way:Attribute("kind", "building")
    local h = tonumber(way:Find("height"))
    if h then way:AttributeNumeric("height", h) end
  end
  WritePOI(way, true)
end

function attribute_function(attr, layer)
  if layer == "earth" then return { kind = "earth" } end
  return { kind = "ocean" }
end
