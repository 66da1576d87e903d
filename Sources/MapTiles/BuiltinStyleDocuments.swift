// swift-format-ignore-file
// Generated from Sources/MapTiles/Styles/*.json: do not edit. After changing a style's JSON,
// run `TERMMAP_RECORD_STYLES=1 swift test --filter BuiltinStyleTests` to write this file again.

/// The built-in styles' JSON text by file name (without `.json`), as in Sources/MapTiles/Styles.
let builtinStyleJSON: [String: String] = [
  "openmaptiles-dark": #"""
    {
      "version": 8,
      "name": "dark",
      "metadata": {
        "termmap:colors": "xterm",
        "termmap:schema": "openmaptiles",
        "termmap:variant": "dark"
      },
      "sources": {
        "openmaptiles": {
          "type": "vector",
          "url": "https://tiles.openfreemap.org/planet",
          "attribution": "© OpenMapTiles © OpenStreetMap contributors"
        }
      },
      "layers": [
        {
          "id": "landcover-park",
          "type": "fill",
          "source": "openmaptiles",
          "source-layer": "landcover",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 12,
          "filter": ["match", ["get", "class"], ["wood", "forest", "grass", "park"], true, false],
          "paint": {"fill-color": "#00af00"}
        },
        {
          "id": "landuse-park",
          "type": "fill",
          "source": "openmaptiles",
          "source-layer": "landuse",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 12,
          "filter": ["match", ["get", "class"], ["park", "cemetery", "grass"], true, false],
          "paint": {"fill-color": "#00af00"}
        },
        {
          "id": "landuse-residential",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "landuse",
          "minzoom": 6,
          "maxzoom": 12,
          "filter": ["==", ["get", "class"], "residential"],
          "paint": {"line-color": "#444444", "line-width": 4}
        },
        {
          "id": "water",
          "type": "fill",
          "source": "openmaptiles",
          "source-layer": "water",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "paint": {"fill-color": "#005faf"}
        },
        {
          "id": "coastline",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "coastline",
          "paint": {"line-color": "#5fafff", "line-width": 4}
        },
        {
          "id": "water-outline",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "water",
          "minzoom": 9,
          "paint": {"line-color": "#5fafff", "line-width": 4}
        },
        {
          "id": "waterway-river",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "waterway",
          "minzoom": 6,
          "filter": ["==", ["get", "class"], "river"],
          "paint": {"line-color": "#5f87ff", "line-width": 4}
        },
        {
          "id": "waterway",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "waterway",
          "minzoom": 10,
          "paint": {"line-color": "#5f87ff", "line-width": 4}
        },
        {
          "id": "building",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "building",
          "minzoom": 14,
          "paint": {"line-color": "#5f5f87", "line-width": 4}
        },
        {
          "id": "boundary-state",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "boundary",
          "minzoom": 3,
          "filter": ["<=", ["get", "admin_level"], 4],
          "paint": {"line-color": "#585858", "line-width": 4, "line-dasharray": [1, 2]}
        },
        {
          "id": "boundary-country",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "boundary",
          "filter": ["<=", ["get", "admin_level"], 2],
          "paint": {"line-color": "#a8a8a8", "line-width": 4}
        },
        {
          "id": "road-path",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 15,
          "filter": ["match", ["get", "class"], ["path", "track"], true, false],
          "paint": {"line-color": "#00afaf", "line-width": 4, "line-dasharray": [1, 1]}
        },
        {
          "id": "road-service",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 15,
          "filter": ["==", ["get", "class"], "service"],
          "paint": {"line-color": "#bcbcbc", "line-width": 4}
        },
        {
          "id": "road-minor",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 13,
          "filter": ["==", ["get", "class"], "minor"],
          "paint": {"line-color": "#dadada", "line-width": 4}
        },
        {
          "id": "railway",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "class"],
            ["rail", "transit", "narrow_gauge", "light_rail", "subway", "tram", "funicular"],
            true,
            false
          ],
          "paint": {"line-color": "#af00af", "line-width": 4, "line-dasharray": [2, 2]}
        },
        {
          "id": "road-tertiary",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 11,
          "filter": ["==", ["get", "class"], "tertiary"],
          "paint": {"line-color": "#d7af00", "line-width": 4}
        },
        {
          "id": "road-secondary",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 11,
          "filter": ["==", ["get", "class"], "secondary"],
          "paint": {"line-color": "#ffd700", "line-width": 4}
        },
        {
          "id": "road-primary",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 8,
          "filter": ["==", ["get", "class"], "primary"],
          "paint": {"line-color": "#ffd700", "line-width": 4}
        },
        {
          "id": "road-trunk",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 8,
          "filter": ["==", ["get", "class"], "trunk"],
          "paint": {"line-color": "#d75f00", "line-width": 4}
        },
        {
          "id": "road-motorway",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 5,
          "filter": ["==", ["get", "class"], "motorway"],
          "paint": {"line-color": "#ff5f00", "line-width": 4}
        },
        {
          "id": "label-poi",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "poi",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 16,
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#00cdcd"}
        },
        {
          "id": "label-street",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "transportation_name",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 14,
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#d0d0d0"}
        },
        {
          "id": "label-village",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "class"],
            ["village", "suburb", "quarter", "neighbourhood"],
            true,
            false
          ],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#bcbcbc"}
        },
        {
          "id": "label-town",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 7,
          "filter": [
            "all",
            ["==", ["get", "class"], "town"],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": [
              "-",
              ["number", ["get", "rank"], 0],
              ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], 10]
            ],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#cdcd00", "icon-color": "#ffff00"}
        },
        {
          "id": "label-state",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 5,
          "filter": ["==", ["get", "class"], "state"],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#bcbcbc"}
        },
        {
          "id": "label-city",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 2,
          "filter": [
            "all",
            ["==", ["get", "class"], "city"],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": [
              "-",
              ["number", ["get", "rank"], 0],
              ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], 10]
            ],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#ffff00", "icon-color": "#ffff00"}
        },
        {
          "id": "label-country",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true},
          "filter": ["==", ["get", "class"], "country"],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Bold"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#ffffff"}
        }
      ]
    }

    """#,
  "openmaptiles-light": #"""
    {
      "version": 8,
      "name": "light",
      "metadata": {
        "termmap:colors": "xterm",
        "termmap:schema": "openmaptiles",
        "termmap:variant": "light"
      },
      "sources": {
        "openmaptiles": {
          "type": "vector",
          "url": "https://tiles.openfreemap.org/planet",
          "attribution": "© OpenMapTiles © OpenStreetMap contributors"
        }
      },
      "layers": [
        {
          "id": "landcover-park",
          "type": "fill",
          "source": "openmaptiles",
          "source-layer": "landcover",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 12,
          "filter": ["match", ["get", "class"], ["wood", "forest", "grass", "park"], true, false],
          "paint": {"fill-color": "#008700"}
        },
        {
          "id": "landuse-park",
          "type": "fill",
          "source": "openmaptiles",
          "source-layer": "landuse",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 12,
          "filter": ["match", ["get", "class"], ["park", "cemetery", "grass"], true, false],
          "paint": {"fill-color": "#008700"}
        },
        {
          "id": "landuse-residential",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "landuse",
          "minzoom": 6,
          "maxzoom": 12,
          "filter": ["==", ["get", "class"], "residential"],
          "paint": {"line-color": "#bcbcbc", "line-width": 4}
        },
        {
          "id": "water",
          "type": "fill",
          "source": "openmaptiles",
          "source-layer": "water",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "paint": {"fill-color": "#5fafff"}
        },
        {
          "id": "coastline",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "coastline",
          "paint": {"line-color": "#005faf", "line-width": 4}
        },
        {
          "id": "water-outline",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "water",
          "minzoom": 9,
          "paint": {"line-color": "#005faf", "line-width": 4}
        },
        {
          "id": "waterway-river",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "waterway",
          "minzoom": 6,
          "filter": ["==", ["get", "class"], "river"],
          "paint": {"line-color": "#005fd7", "line-width": 4}
        },
        {
          "id": "waterway",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "waterway",
          "minzoom": 10,
          "paint": {"line-color": "#005fd7", "line-width": 4}
        },
        {
          "id": "building",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "building",
          "minzoom": 14,
          "paint": {"line-color": "#8787af", "line-width": 4}
        },
        {
          "id": "boundary-state",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "boundary",
          "minzoom": 3,
          "filter": ["<=", ["get", "admin_level"], 4],
          "paint": {"line-color": "#949494", "line-width": 4, "line-dasharray": [1, 2]}
        },
        {
          "id": "boundary-country",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "boundary",
          "filter": ["<=", ["get", "admin_level"], 2],
          "paint": {"line-color": "#585858", "line-width": 4}
        },
        {
          "id": "road-path",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 15,
          "filter": ["match", ["get", "class"], ["path", "track"], true, false],
          "paint": {"line-color": "#008787", "line-width": 4, "line-dasharray": [1, 1]}
        },
        {
          "id": "road-service",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 15,
          "filter": ["==", ["get", "class"], "service"],
          "paint": {"line-color": "#3a3a3a", "line-width": 4}
        },
        {
          "id": "road-minor",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 13,
          "filter": ["==", ["get", "class"], "minor"],
          "paint": {"line-color": "#303030", "line-width": 4}
        },
        {
          "id": "railway",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "class"],
            ["rail", "transit", "narrow_gauge", "light_rail", "subway", "tram", "funicular"],
            true,
            false
          ],
          "paint": {"line-color": "#870087", "line-width": 4, "line-dasharray": [2, 2]}
        },
        {
          "id": "road-tertiary",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 11,
          "filter": ["==", ["get", "class"], "tertiary"],
          "paint": {"line-color": "#af8700", "line-width": 4}
        },
        {
          "id": "road-secondary",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 11,
          "filter": ["==", ["get", "class"], "secondary"],
          "paint": {"line-color": "#d78700", "line-width": 4}
        },
        {
          "id": "road-primary",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 8,
          "filter": ["==", ["get", "class"], "primary"],
          "paint": {"line-color": "#d78700", "line-width": 4}
        },
        {
          "id": "road-trunk",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 8,
          "filter": ["==", ["get", "class"], "trunk"],
          "paint": {"line-color": "#af0000", "line-width": 4}
        },
        {
          "id": "road-motorway",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 5,
          "filter": ["==", ["get", "class"], "motorway"],
          "paint": {"line-color": "#d70000", "line-width": 4}
        },
        {
          "id": "label-poi",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "poi",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 16,
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#005f87"}
        },
        {
          "id": "label-street",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "transportation_name",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 14,
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#444444"}
        },
        {
          "id": "label-village",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "class"],
            ["village", "suburb", "quarter", "neighbourhood"],
            true,
            false
          ],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#444444"}
        },
        {
          "id": "label-town",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 7,
          "filter": [
            "all",
            ["==", ["get", "class"], "town"],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": [
              "-",
              ["number", ["get", "rank"], 0],
              ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], 10]
            ],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#875f00", "icon-color": "#cd0000"}
        },
        {
          "id": "label-state",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 5,
          "filter": ["==", ["get", "class"], "state"],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#444444"}
        },
        {
          "id": "label-city",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 2,
          "filter": [
            "all",
            ["==", ["get", "class"], "city"],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": [
              "-",
              ["number", ["get", "rank"], 0],
              ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], 10]
            ],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#cd0000", "icon-color": "#cd0000"}
        },
        {
          "id": "label-country",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true},
          "filter": ["==", ["get", "class"], "country"],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Bold"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#000000"}
        }
      ]
    }

    """#,
  "openmaptiles-mono": #"""
    {
      "version": 8,
      "name": "mono",
      "metadata": {
        "termmap:colors": "xterm",
        "termmap:schema": "openmaptiles",
        "termmap:variant": "mono"
      },
      "sources": {
        "openmaptiles": {
          "type": "vector",
          "url": "https://tiles.openfreemap.org/planet",
          "attribution": "© OpenMapTiles © OpenStreetMap contributors"
        }
      },
      "layers": [
        {
          "id": "landcover-park",
          "type": "fill",
          "source": "openmaptiles",
          "source-layer": "landcover",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 12,
          "filter": ["match", ["get", "class"], ["wood", "forest", "grass", "park"], true, false],
          "paint": {"fill-color": "#808080"}
        },
        {
          "id": "landuse-park",
          "type": "fill",
          "source": "openmaptiles",
          "source-layer": "landuse",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 12,
          "filter": ["match", ["get", "class"], ["park", "cemetery", "grass"], true, false],
          "paint": {"fill-color": "#808080"}
        },
        {
          "id": "landuse-residential",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "landuse",
          "minzoom": 6,
          "maxzoom": 12,
          "filter": ["==", ["get", "class"], "residential"],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "water",
          "type": "fill",
          "source": "openmaptiles",
          "source-layer": "water",
          "metadata": {"termmap:fill-pattern": 130},
          "paint": {"fill-color": "#808080"}
        },
        {
          "id": "coastline",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "coastline",
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "water-outline",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "water",
          "minzoom": 9,
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "waterway-river",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "waterway",
          "minzoom": 6,
          "filter": ["==", ["get", "class"], "river"],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "waterway",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "waterway",
          "minzoom": 10,
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "building",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "building",
          "minzoom": 14,
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "boundary-state",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "boundary",
          "minzoom": 3,
          "filter": ["<=", ["get", "admin_level"], 4],
          "paint": {"line-color": "#808080", "line-width": 4, "line-dasharray": [1, 2]}
        },
        {
          "id": "boundary-country",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "boundary",
          "filter": ["<=", ["get", "admin_level"], 2],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "road-path",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 15,
          "filter": ["match", ["get", "class"], ["path", "track"], true, false],
          "paint": {"line-color": "#808080", "line-width": 4, "line-dasharray": [1, 1]}
        },
        {
          "id": "road-service",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 15,
          "filter": ["==", ["get", "class"], "service"],
          "paint": {"line-color": "#808080", "line-width": 4, "line-dasharray": [2, 1]}
        },
        {
          "id": "road-minor",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 13,
          "filter": ["==", ["get", "class"], "minor"],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "railway",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "class"],
            ["rail", "transit", "narrow_gauge", "light_rail", "subway", "tram", "funicular"],
            true,
            false
          ],
          "paint": {"line-color": "#808080", "line-width": 4, "line-dasharray": [3, 2]}
        },
        {
          "id": "road-tertiary",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 11,
          "filter": ["==", ["get", "class"], "tertiary"],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "road-secondary",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 11,
          "filter": ["==", ["get", "class"], "secondary"],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "road-primary",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 8,
          "filter": ["==", ["get", "class"], "primary"],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "road-trunk",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 8,
          "filter": ["==", ["get", "class"], "trunk"],
          "paint": {"line-color": "#808080", "line-width": 8}
        },
        {
          "id": "road-motorway",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 5,
          "filter": ["==", ["get", "class"], "motorway"],
          "paint": {"line-color": "#808080", "line-width": 8}
        },
        {
          "id": "label-poi",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "poi",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 16,
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#808080"}
        },
        {
          "id": "label-street",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "transportation_name",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 14,
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#808080"}
        },
        {
          "id": "label-village",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "class"],
            ["village", "suburb", "quarter", "neighbourhood"],
            true,
            false
          ],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#808080"}
        },
        {
          "id": "label-town",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 7,
          "filter": [
            "all",
            ["==", ["get", "class"], "town"],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": [
              "-",
              ["number", ["get", "rank"], 0],
              ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], 10]
            ],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#808080", "icon-color": "#808080"}
        },
        {
          "id": "label-state",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 5,
          "filter": ["==", ["get", "class"], "state"],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#808080"}
        },
        {
          "id": "label-city",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 2,
          "filter": [
            "all",
            ["==", ["get", "class"], "city"],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Bold"],
            "symbol-sort-key": [
              "-",
              ["number", ["get", "rank"], 0],
              ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], 10]
            ],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#808080", "icon-color": "#808080"}
        },
        {
          "id": "label-country",
          "type": "symbol",
          "source": "openmaptiles",
          "source-layer": "place",
          "metadata": {"termmap:narrow-first": true},
          "filter": ["==", ["get", "class"], "country"],
          "layout": {
            "text-field": [
              "coalesce",
              ["get", "name"],
              ["get", "name_en"],
              ["get", "name:latin"],
              ["get", "name_int"]
            ],
            "text-font": ["Noto Sans Bold"],
            "symbol-sort-key": ["number", ["get", "rank"], 0]
          },
          "paint": {"text-color": "#808080"}
        }
      ]
    }

    """#,
  "protomaps-dark": #"""
    {
      "version": 8,
      "name": "protomaps",
      "metadata": {"termmap:colors": "xterm", "termmap:schema": "protomaps", "termmap:variant": "dark"},
      "sources": {
        "protomaps": {
          "type": "vector",
          "url": "pmtiles://https://demo-bucket.protomaps.com/v4.pmtiles",
          "attribution": "Protomaps © OpenStreetMap contributors"
        }
      },
      "layers": [
        {
          "id": "landuse-park",
          "type": "fill",
          "source": "protomaps",
          "source-layer": "landuse",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "kind"],
            [
              "park", "garden", "cemetery", "grass", "forest", "wood", "recreation_ground",
              "golf_course", "nature_reserve", "national_park", "grassland", "scrub"
            ],
            true,
            false
          ],
          "paint": {"fill-color": "#00af00"}
        },
        {
          "id": "water",
          "type": "fill",
          "source": "protomaps",
          "source-layer": "water",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "paint": {"fill-color": "#005faf"}
        },
        {
          "id": "water-outline",
          "type": "line",
          "source": "protomaps",
          "source-layer": "water",
          "minzoom": 9,
          "filter": ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]],
          "paint": {"line-color": "#5fafff", "line-width": 4}
        },
        {
          "id": "building",
          "type": "line",
          "source": "protomaps",
          "source-layer": "buildings",
          "minzoom": 14,
          "paint": {"line-color": "#5f5f87", "line-width": 4}
        },
        {
          "id": "boundary-region",
          "type": "line",
          "source": "protomaps",
          "source-layer": "boundaries",
          "minzoom": 3,
          "filter": [
            "all",
            ["==", ["get", "kind"], "region"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#585858", "line-width": 4, "line-dasharray": [1, 2]}
        },
        {
          "id": "boundary-country",
          "type": "line",
          "source": "protomaps",
          "source-layer": "boundaries",
          "filter": ["==", ["get", "kind"], "country"],
          "paint": {"line-color": "#a8a8a8", "line-width": 4}
        },
        {
          "id": "road-path",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 15,
          "filter": [
            "all",
            ["==", ["get", "kind"], "path"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#00afaf", "line-width": 4, "line-dasharray": [1, 1]}
        },
        {
          "id": "road-other",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 15,
          "filter": [
            "all",
            ["==", ["get", "kind"], "other"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#bcbcbc", "line-width": 4}
        },
        {
          "id": "road-minor",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 13,
          "filter": [
            "all",
            ["==", ["get", "kind"], "minor_road"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#dadada", "line-width": 4}
        },
        {
          "id": "railway",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 12,
          "filter": [
            "all",
            ["==", ["get", "kind"], "rail"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#af00af", "line-width": 4, "line-dasharray": [2, 2]}
        },
        {
          "id": "road-tertiary",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 11,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "tertiary"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#d7af00", "line-width": 4}
        },
        {
          "id": "road-secondary",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 11,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "secondary"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#ffd700", "line-width": 4}
        },
        {
          "id": "road-primary",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 8,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "primary"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#ffd700", "line-width": 4}
        },
        {
          "id": "road-trunk",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 8,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "trunk"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#d75f00", "line-width": 4}
        },
        {
          "id": "road-highway",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 5,
          "filter": [
            "all",
            ["==", ["get", "kind"], "highway"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#ff5f00", "line-width": 4}
        },
        {
          "id": "label-poi",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "pois",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 16,
          "filter": ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#00cdcd"}
        },
        {
          "id": "label-street",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "roads",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 14,
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#d0d0d0"}
        },
        {
          "id": "label-locality",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 12,
          "filter": [
            "all",
            [
              "match",
              ["get", "kind"],
              ["locality", "neighbourhood", "macrohood", "microhood"],
              true,
              false
            ],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["-", ["number", ["get", "population_rank"], 0]]
          },
          "paint": {"text-color": "#bcbcbc"}
        },
        {
          "id": "label-town",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 7,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "town"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": [
              "-",
              ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], -10],
              ["number", ["get", "population_rank"], 0]
            ],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#cdcd00", "icon-color": "#ffff00"}
        },
        {
          "id": "label-region",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 5,
          "filter": [
            "all",
            ["==", ["get", "kind"], "region"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#bcbcbc"}
        },
        {
          "id": "label-city",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 2,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "city"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": [
              "-",
              ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], -10],
              ["number", ["get", "population_rank"], 0]
            ],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#ffff00", "icon-color": "#ffff00"}
        },
        {
          "id": "label-country",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true},
          "filter": [
            "all",
            ["==", ["get", "kind"], "country"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Bold"]
          },
          "paint": {"text-color": "#ffffff"}
        }
      ]
    }

    """#,
  "protomaps-light": #"""
    {
      "version": 8,
      "name": "protomaps-light",
      "metadata": {"termmap:colors": "xterm", "termmap:schema": "protomaps", "termmap:variant": "light"},
      "sources": {
        "protomaps": {
          "type": "vector",
          "url": "pmtiles://https://demo-bucket.protomaps.com/v4.pmtiles",
          "attribution": "Protomaps © OpenStreetMap contributors"
        }
      },
      "layers": [
        {
          "id": "landuse-park",
          "type": "fill",
          "source": "protomaps",
          "source-layer": "landuse",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "kind"],
            [
              "park", "garden", "cemetery", "grass", "forest", "wood", "recreation_ground",
              "golf_course", "nature_reserve", "national_park", "grassland", "scrub"
            ],
            true,
            false
          ],
          "paint": {"fill-color": "#008700"}
        },
        {
          "id": "water",
          "type": "fill",
          "source": "protomaps",
          "source-layer": "water",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "paint": {"fill-color": "#5fafff"}
        },
        {
          "id": "water-outline",
          "type": "line",
          "source": "protomaps",
          "source-layer": "water",
          "minzoom": 9,
          "filter": ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]],
          "paint": {"line-color": "#005faf", "line-width": 4}
        },
        {
          "id": "building",
          "type": "line",
          "source": "protomaps",
          "source-layer": "buildings",
          "minzoom": 14,
          "paint": {"line-color": "#8787af", "line-width": 4}
        },
        {
          "id": "boundary-region",
          "type": "line",
          "source": "protomaps",
          "source-layer": "boundaries",
          "minzoom": 3,
          "filter": [
            "all",
            ["==", ["get", "kind"], "region"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#949494", "line-width": 4, "line-dasharray": [1, 2]}
        },
        {
          "id": "boundary-country",
          "type": "line",
          "source": "protomaps",
          "source-layer": "boundaries",
          "filter": ["==", ["get", "kind"], "country"],
          "paint": {"line-color": "#585858", "line-width": 4}
        },
        {
          "id": "road-path",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 15,
          "filter": [
            "all",
            ["==", ["get", "kind"], "path"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#008787", "line-width": 4, "line-dasharray": [1, 1]}
        },
        {
          "id": "road-other",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 15,
          "filter": [
            "all",
            ["==", ["get", "kind"], "other"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#3a3a3a", "line-width": 4}
        },
        {
          "id": "road-minor",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 13,
          "filter": [
            "all",
            ["==", ["get", "kind"], "minor_road"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#303030", "line-width": 4}
        },
        {
          "id": "railway",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 12,
          "filter": [
            "all",
            ["==", ["get", "kind"], "rail"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#870087", "line-width": 4, "line-dasharray": [2, 2]}
        },
        {
          "id": "road-tertiary",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 11,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "tertiary"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#af8700", "line-width": 4}
        },
        {
          "id": "road-secondary",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 11,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "secondary"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#d78700", "line-width": 4}
        },
        {
          "id": "road-primary",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 8,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "primary"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#d78700", "line-width": 4}
        },
        {
          "id": "road-trunk",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 8,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "trunk"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#af0000", "line-width": 4}
        },
        {
          "id": "road-highway",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 5,
          "filter": [
            "all",
            ["==", ["get", "kind"], "highway"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#d70000", "line-width": 4}
        },
        {
          "id": "label-poi",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "pois",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 16,
          "filter": ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#005f87"}
        },
        {
          "id": "label-street",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "roads",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 14,
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#444444"}
        },
        {
          "id": "label-locality",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 12,
          "filter": [
            "all",
            [
              "match",
              ["get", "kind"],
              ["locality", "neighbourhood", "macrohood", "microhood"],
              true,
              false
            ],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["-", ["number", ["get", "population_rank"], 0]]
          },
          "paint": {"text-color": "#444444"}
        },
        {
          "id": "label-town",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 7,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "town"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": [
              "-",
              ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], -10],
              ["number", ["get", "population_rank"], 0]
            ],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#875f00", "icon-color": "#cd0000"}
        },
        {
          "id": "label-region",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 5,
          "filter": [
            "all",
            ["==", ["get", "kind"], "region"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#444444"}
        },
        {
          "id": "label-city",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 2,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "city"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": [
              "-",
              ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], -10],
              ["number", ["get", "population_rank"], 0]
            ],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#cd0000", "icon-color": "#cd0000"}
        },
        {
          "id": "label-country",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true},
          "filter": [
            "all",
            ["==", ["get", "kind"], "country"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Bold"]
          },
          "paint": {"text-color": "#000000"}
        }
      ]
    }

    """#,
  "protomaps-mono": #"""
    {
      "version": 8,
      "name": "protomaps-mono",
      "metadata": {"termmap:colors": "xterm", "termmap:schema": "protomaps", "termmap:variant": "mono"},
      "sources": {
        "protomaps": {
          "type": "vector",
          "url": "pmtiles://https://demo-bucket.protomaps.com/v4.pmtiles",
          "attribution": "Protomaps © OpenStreetMap contributors"
        }
      },
      "layers": [
        {
          "id": "landuse-park",
          "type": "fill",
          "source": "protomaps",
          "source-layer": "landuse",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "kind"],
            [
              "park", "garden", "cemetery", "grass", "forest", "wood", "recreation_ground",
              "golf_course", "nature_reserve", "national_park", "grassland", "scrub"
            ],
            true,
            false
          ],
          "paint": {"fill-color": "#808080"}
        },
        {
          "id": "water",
          "type": "fill",
          "source": "protomaps",
          "source-layer": "water",
          "metadata": {"termmap:fill-pattern": 130},
          "paint": {"fill-color": "#808080"}
        },
        {
          "id": "water-outline",
          "type": "line",
          "source": "protomaps",
          "source-layer": "water",
          "minzoom": 9,
          "filter": ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "building",
          "type": "line",
          "source": "protomaps",
          "source-layer": "buildings",
          "minzoom": 14,
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "boundary-region",
          "type": "line",
          "source": "protomaps",
          "source-layer": "boundaries",
          "minzoom": 3,
          "filter": [
            "all",
            ["==", ["get", "kind"], "region"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#808080", "line-width": 4, "line-dasharray": [1, 2]}
        },
        {
          "id": "boundary-country",
          "type": "line",
          "source": "protomaps",
          "source-layer": "boundaries",
          "filter": ["==", ["get", "kind"], "country"],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "road-path",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 15,
          "filter": [
            "all",
            ["==", ["get", "kind"], "path"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#808080", "line-width": 4, "line-dasharray": [1, 1]}
        },
        {
          "id": "road-other",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 15,
          "filter": [
            "all",
            ["==", ["get", "kind"], "other"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#808080", "line-width": 4, "line-dasharray": [2, 1]}
        },
        {
          "id": "road-minor",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 13,
          "filter": [
            "all",
            ["==", ["get", "kind"], "minor_road"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "railway",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 12,
          "filter": [
            "all",
            ["==", ["get", "kind"], "rail"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#808080", "line-width": 4, "line-dasharray": [3, 2]}
        },
        {
          "id": "road-tertiary",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 11,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "tertiary"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "road-secondary",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 11,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "secondary"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "road-primary",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 8,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "primary"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "road-trunk",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 8,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "trunk"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#808080", "line-width": 8}
        },
        {
          "id": "road-highway",
          "type": "line",
          "source": "protomaps",
          "source-layer": "roads",
          "minzoom": 5,
          "filter": [
            "all",
            ["==", ["get", "kind"], "highway"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "paint": {"line-color": "#808080", "line-width": 8}
        },
        {
          "id": "label-poi",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "pois",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 16,
          "filter": ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#808080"}
        },
        {
          "id": "label-street",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "roads",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 14,
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#808080"}
        },
        {
          "id": "label-locality",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 12,
          "filter": [
            "all",
            [
              "match",
              ["get", "kind"],
              ["locality", "neighbourhood", "macrohood", "microhood"],
              true,
              false
            ],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["-", ["number", ["get", "population_rank"], 0]]
          },
          "paint": {"text-color": "#808080"}
        },
        {
          "id": "label-town",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 7,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "town"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": [
              "-",
              ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], -10],
              ["number", ["get", "population_rank"], 0]
            ],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#808080", "icon-color": "#808080"}
        },
        {
          "id": "label-region",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 5,
          "filter": [
            "all",
            ["==", ["get", "kind"], "region"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#808080"}
        },
        {
          "id": "label-city",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 2,
          "filter": [
            "all",
            ["==", ["get", "kind_detail"], "city"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Bold"],
            "symbol-sort-key": [
              "-",
              ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], -10],
              ["number", ["get", "population_rank"], 0]
            ],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#808080", "icon-color": "#808080"}
        },
        {
          "id": "label-country",
          "type": "symbol",
          "source": "protomaps",
          "source-layer": "places",
          "metadata": {"termmap:narrow-first": true},
          "filter": [
            "all",
            ["==", ["get", "kind"], "country"],
            ["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name:en"], ["get", "pgf:name"]],
            "text-font": ["Noto Sans Bold"]
          },
          "paint": {"text-color": "#808080"}
        }
      ]
    }

    """#,
  "shortbread-dark": #"""
    {
      "version": 8,
      "name": "shortbread",
      "metadata": {"termmap:colors": "xterm", "termmap:schema": "shortbread", "termmap:variant": "dark"},
      "sources": {
        "shortbread": {
          "type": "vector",
          "tiles": ["https://tiles.versatiles.org/tiles/osm/{z}/{x}/{y}"],
          "maxzoom": 14,
          "attribution": "© OpenStreetMap contributors"
        }
      },
      "layers": [
        {
          "id": "land-park",
          "type": "fill",
          "source": "shortbread",
          "source-layer": "land",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "kind"],
            [
              "forest", "grass", "meadow", "park", "garden", "village_green", "recreation_ground",
              "cemetery", "grave_yard", "golf_course", "heath", "scrub", "allotments"
            ],
            true,
            false
          ],
          "paint": {"fill-color": "#00af00"}
        },
        {
          "id": "ocean",
          "type": "fill",
          "source": "shortbread",
          "source-layer": "ocean",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "paint": {"fill-color": "#005faf"}
        },
        {
          "id": "water",
          "type": "fill",
          "source": "shortbread",
          "source-layer": "water_polygons",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 4,
          "paint": {"fill-color": "#005faf"}
        },
        {
          "id": "ocean-outline",
          "type": "line",
          "source": "shortbread",
          "source-layer": "ocean",
          "minzoom": 9,
          "paint": {"line-color": "#5fafff", "line-width": 4}
        },
        {
          "id": "water-outline",
          "type": "line",
          "source": "shortbread",
          "source-layer": "water_polygons",
          "minzoom": 9,
          "paint": {"line-color": "#5fafff", "line-width": 4}
        },
        {
          "id": "waterway",
          "type": "line",
          "source": "shortbread",
          "source-layer": "water_lines",
          "minzoom": 10,
          "paint": {"line-color": "#5f87ff", "line-width": 4}
        },
        {
          "id": "building",
          "type": "line",
          "source": "shortbread",
          "source-layer": "buildings",
          "minzoom": 14,
          "paint": {"line-color": "#5f5f87", "line-width": 4}
        },
        {
          "id": "boundary-state",
          "type": "line",
          "source": "shortbread",
          "source-layer": "boundaries",
          "minzoom": 3,
          "filter": ["<=", ["get", "admin_level"], 4],
          "paint": {"line-color": "#585858", "line-width": 4, "line-dasharray": [1, 2]}
        },
        {
          "id": "boundary-country",
          "type": "line",
          "source": "shortbread",
          "source-layer": "boundaries",
          "filter": ["<=", ["get", "admin_level"], 2],
          "paint": {"line-color": "#a8a8a8", "line-width": 4}
        },
        {
          "id": "road-path",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 15,
          "filter": [
            "match",
            ["get", "kind"],
            ["path", "footway", "steps", "cycleway", "bridleway", "track"],
            true,
            false
          ],
          "paint": {"line-color": "#00afaf", "line-width": 4, "line-dasharray": [1, 1]}
        },
        {
          "id": "road-service",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 15,
          "filter": ["==", ["get", "kind"], "service"],
          "paint": {"line-color": "#bcbcbc", "line-width": 4}
        },
        {
          "id": "road-minor",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 13,
          "filter": [
            "match",
            ["get", "kind"],
            ["unclassified", "residential", "living_street", "pedestrian", "busway"],
            true,
            false
          ],
          "paint": {"line-color": "#dadada", "line-width": 4}
        },
        {
          "id": "railway",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "kind"],
            ["rail", "narrow_gauge", "light_rail", "tram", "subway", "funicular", "monorail"],
            true,
            false
          ],
          "paint": {"line-color": "#af00af", "line-width": 4, "line-dasharray": [2, 2]}
        },
        {
          "id": "road-tertiary",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 11,
          "filter": ["==", ["get", "kind"], "tertiary"],
          "paint": {"line-color": "#d7af00", "line-width": 4}
        },
        {
          "id": "road-secondary",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 11,
          "filter": ["==", ["get", "kind"], "secondary"],
          "paint": {"line-color": "#ffd700", "line-width": 4}
        },
        {
          "id": "road-primary",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 8,
          "filter": ["==", ["get", "kind"], "primary"],
          "paint": {"line-color": "#ffd700", "line-width": 4}
        },
        {
          "id": "road-trunk",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 8,
          "filter": ["==", ["get", "kind"], "trunk"],
          "paint": {"line-color": "#d75f00", "line-width": 4}
        },
        {
          "id": "road-motorway",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 5,
          "filter": ["==", ["get", "kind"], "motorway"],
          "paint": {"line-color": "#ff5f00", "line-width": 4}
        },
        {
          "id": "label-poi",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "pois",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 16,
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#00cdcd"}
        },
        {
          "id": "label-street",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "street_labels",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 14,
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#d0d0d0"}
        },
        {
          "id": "label-village",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "place_labels",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "kind"],
            ["village", "suburb", "quarter", "neighbourhood", "hamlet"],
            true,
            false
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#bcbcbc"}
        },
        {
          "id": "label-town",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "place_labels",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 7,
          "filter": [
            "all",
            ["==", ["get", "kind"], "town"],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], -10],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#cdcd00", "icon-color": "#ffff00"}
        },
        {
          "id": "label-city",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "place_labels",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 2,
          "filter": [
            "all",
            ["match", ["get", "kind"], ["capital", "state_capital", "city"], true, false],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], -10],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#ffff00", "icon-color": "#ffff00"}
        }
      ]
    }

    """#,
  "shortbread-light": #"""
    {
      "version": 8,
      "name": "shortbread-light",
      "metadata": {
        "termmap:colors": "xterm",
        "termmap:schema": "shortbread",
        "termmap:variant": "light"
      },
      "sources": {
        "shortbread": {
          "type": "vector",
          "tiles": ["https://tiles.versatiles.org/tiles/osm/{z}/{x}/{y}"],
          "maxzoom": 14,
          "attribution": "© OpenStreetMap contributors"
        }
      },
      "layers": [
        {
          "id": "land-park",
          "type": "fill",
          "source": "shortbread",
          "source-layer": "land",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "kind"],
            [
              "forest", "grass", "meadow", "park", "garden", "village_green", "recreation_ground",
              "cemetery", "grave_yard", "golf_course", "heath", "scrub", "allotments"
            ],
            true,
            false
          ],
          "paint": {"fill-color": "#008700"}
        },
        {
          "id": "ocean",
          "type": "fill",
          "source": "shortbread",
          "source-layer": "ocean",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "paint": {"fill-color": "#5fafff"}
        },
        {
          "id": "water",
          "type": "fill",
          "source": "shortbread",
          "source-layer": "water_polygons",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 4,
          "paint": {"fill-color": "#5fafff"}
        },
        {
          "id": "ocean-outline",
          "type": "line",
          "source": "shortbread",
          "source-layer": "ocean",
          "minzoom": 9,
          "paint": {"line-color": "#005faf", "line-width": 4}
        },
        {
          "id": "water-outline",
          "type": "line",
          "source": "shortbread",
          "source-layer": "water_polygons",
          "minzoom": 9,
          "paint": {"line-color": "#005faf", "line-width": 4}
        },
        {
          "id": "waterway",
          "type": "line",
          "source": "shortbread",
          "source-layer": "water_lines",
          "minzoom": 10,
          "paint": {"line-color": "#005fd7", "line-width": 4}
        },
        {
          "id": "building",
          "type": "line",
          "source": "shortbread",
          "source-layer": "buildings",
          "minzoom": 14,
          "paint": {"line-color": "#8787af", "line-width": 4}
        },
        {
          "id": "boundary-state",
          "type": "line",
          "source": "shortbread",
          "source-layer": "boundaries",
          "minzoom": 3,
          "filter": ["<=", ["get", "admin_level"], 4],
          "paint": {"line-color": "#949494", "line-width": 4, "line-dasharray": [1, 2]}
        },
        {
          "id": "boundary-country",
          "type": "line",
          "source": "shortbread",
          "source-layer": "boundaries",
          "filter": ["<=", ["get", "admin_level"], 2],
          "paint": {"line-color": "#585858", "line-width": 4}
        },
        {
          "id": "road-path",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 15,
          "filter": [
            "match",
            ["get", "kind"],
            ["path", "footway", "steps", "cycleway", "bridleway", "track"],
            true,
            false
          ],
          "paint": {"line-color": "#008787", "line-width": 4, "line-dasharray": [1, 1]}
        },
        {
          "id": "road-service",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 15,
          "filter": ["==", ["get", "kind"], "service"],
          "paint": {"line-color": "#3a3a3a", "line-width": 4}
        },
        {
          "id": "road-minor",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 13,
          "filter": [
            "match",
            ["get", "kind"],
            ["unclassified", "residential", "living_street", "pedestrian", "busway"],
            true,
            false
          ],
          "paint": {"line-color": "#303030", "line-width": 4}
        },
        {
          "id": "railway",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "kind"],
            ["rail", "narrow_gauge", "light_rail", "tram", "subway", "funicular", "monorail"],
            true,
            false
          ],
          "paint": {"line-color": "#870087", "line-width": 4, "line-dasharray": [2, 2]}
        },
        {
          "id": "road-tertiary",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 11,
          "filter": ["==", ["get", "kind"], "tertiary"],
          "paint": {"line-color": "#af8700", "line-width": 4}
        },
        {
          "id": "road-secondary",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 11,
          "filter": ["==", ["get", "kind"], "secondary"],
          "paint": {"line-color": "#d78700", "line-width": 4}
        },
        {
          "id": "road-primary",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 8,
          "filter": ["==", ["get", "kind"], "primary"],
          "paint": {"line-color": "#d78700", "line-width": 4}
        },
        {
          "id": "road-trunk",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 8,
          "filter": ["==", ["get", "kind"], "trunk"],
          "paint": {"line-color": "#af0000", "line-width": 4}
        },
        {
          "id": "road-motorway",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 5,
          "filter": ["==", ["get", "kind"], "motorway"],
          "paint": {"line-color": "#d70000", "line-width": 4}
        },
        {
          "id": "label-poi",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "pois",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 16,
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#005f87"}
        },
        {
          "id": "label-street",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "street_labels",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 14,
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#444444"}
        },
        {
          "id": "label-village",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "place_labels",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "kind"],
            ["village", "suburb", "quarter", "neighbourhood", "hamlet"],
            true,
            false
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#444444"}
        },
        {
          "id": "label-town",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "place_labels",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 7,
          "filter": [
            "all",
            ["==", ["get", "kind"], "town"],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], -10],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#875f00", "icon-color": "#cd0000"}
        },
        {
          "id": "label-city",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "place_labels",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 2,
          "filter": [
            "all",
            ["match", ["get", "kind"], ["capital", "state_capital", "city"], true, false],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], -10],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#cd0000", "icon-color": "#cd0000"}
        }
      ]
    }

    """#,
  "shortbread-mono": #"""
    {
      "version": 8,
      "name": "shortbread-mono",
      "metadata": {"termmap:colors": "xterm", "termmap:schema": "shortbread", "termmap:variant": "mono"},
      "sources": {
        "shortbread": {
          "type": "vector",
          "tiles": ["https://tiles.versatiles.org/tiles/osm/{z}/{x}/{y}"],
          "maxzoom": 14,
          "attribution": "© OpenStreetMap contributors"
        }
      },
      "layers": [
        {
          "id": "land-park",
          "type": "fill",
          "source": "shortbread",
          "source-layer": "land",
          "metadata": {"termmap:fill-pattern": "sparse"},
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "kind"],
            [
              "forest", "grass", "meadow", "park", "garden", "village_green", "recreation_ground",
              "cemetery", "grave_yard", "golf_course", "heath", "scrub", "allotments"
            ],
            true,
            false
          ],
          "paint": {"fill-color": "#808080"}
        },
        {
          "id": "ocean",
          "type": "fill",
          "source": "shortbread",
          "source-layer": "ocean",
          "metadata": {"termmap:fill-pattern": 130},
          "paint": {"fill-color": "#808080"}
        },
        {
          "id": "water",
          "type": "fill",
          "source": "shortbread",
          "source-layer": "water_polygons",
          "metadata": {"termmap:fill-pattern": 130},
          "minzoom": 4,
          "paint": {"fill-color": "#808080"}
        },
        {
          "id": "ocean-outline",
          "type": "line",
          "source": "shortbread",
          "source-layer": "ocean",
          "minzoom": 9,
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "water-outline",
          "type": "line",
          "source": "shortbread",
          "source-layer": "water_polygons",
          "minzoom": 9,
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "waterway",
          "type": "line",
          "source": "shortbread",
          "source-layer": "water_lines",
          "minzoom": 10,
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "building",
          "type": "line",
          "source": "shortbread",
          "source-layer": "buildings",
          "minzoom": 14,
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "boundary-state",
          "type": "line",
          "source": "shortbread",
          "source-layer": "boundaries",
          "minzoom": 3,
          "filter": ["<=", ["get", "admin_level"], 4],
          "paint": {"line-color": "#808080", "line-width": 4, "line-dasharray": [1, 2]}
        },
        {
          "id": "boundary-country",
          "type": "line",
          "source": "shortbread",
          "source-layer": "boundaries",
          "filter": ["<=", ["get", "admin_level"], 2],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "road-path",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 15,
          "filter": [
            "match",
            ["get", "kind"],
            ["path", "footway", "steps", "cycleway", "bridleway", "track"],
            true,
            false
          ],
          "paint": {"line-color": "#808080", "line-width": 4, "line-dasharray": [1, 1]}
        },
        {
          "id": "road-service",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 15,
          "filter": ["==", ["get", "kind"], "service"],
          "paint": {"line-color": "#808080", "line-width": 4, "line-dasharray": [2, 1]}
        },
        {
          "id": "road-minor",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 13,
          "filter": [
            "match",
            ["get", "kind"],
            ["unclassified", "residential", "living_street", "pedestrian", "busway"],
            true,
            false
          ],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "railway",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "kind"],
            ["rail", "narrow_gauge", "light_rail", "tram", "subway", "funicular", "monorail"],
            true,
            false
          ],
          "paint": {"line-color": "#808080", "line-width": 4, "line-dasharray": [3, 2]}
        },
        {
          "id": "road-tertiary",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 11,
          "filter": ["==", ["get", "kind"], "tertiary"],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "road-secondary",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 11,
          "filter": ["==", ["get", "kind"], "secondary"],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "road-primary",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 8,
          "filter": ["==", ["get", "kind"], "primary"],
          "paint": {"line-color": "#808080", "line-width": 4}
        },
        {
          "id": "road-trunk",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 8,
          "filter": ["==", ["get", "kind"], "trunk"],
          "paint": {"line-color": "#808080", "line-width": 8}
        },
        {
          "id": "road-motorway",
          "type": "line",
          "source": "shortbread",
          "source-layer": "streets",
          "minzoom": 5,
          "filter": ["==", ["get", "kind"], "motorway"],
          "paint": {"line-color": "#808080", "line-width": 8}
        },
        {
          "id": "label-poi",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "pois",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 16,
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#808080"}
        },
        {
          "id": "label-street",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "street_labels",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 14,
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#808080"}
        },
        {
          "id": "label-village",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "place_labels",
          "metadata": {"termmap:narrow-first": true},
          "minzoom": 12,
          "filter": [
            "match",
            ["get", "kind"],
            ["village", "suburb", "quarter", "neighbourhood", "hamlet"],
            true,
            false
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"]
          },
          "paint": {"text-color": "#808080"}
        },
        {
          "id": "label-town",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "place_labels",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 7,
          "filter": [
            "all",
            ["==", ["get", "kind"], "town"],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Regular"],
            "symbol-sort-key": ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], -10],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#808080", "icon-color": "#808080"}
        },
        {
          "id": "label-city",
          "type": "symbol",
          "source": "shortbread",
          "source-layer": "place_labels",
          "metadata": {"termmap:narrow-first": true, "termmap:icon": "•"},
          "minzoom": 2,
          "filter": [
            "all",
            ["match", ["get", "kind"], ["capital", "state_capital", "city"], true, false],
            [
              "any",
              [
                "case",
                ["==", ["typeof", ["get", "capital"]], "string"],
                [
                  "any",
                  ["==", ["get", "capital"], "yes"],
                  ["!=", ["to-number", ["get", "capital"], 0], 0]
                ],
                ["to-boolean", ["get", "capital"]]
              ],
              [
                ">=",
                ["number", ["get", "population"], 0],
                ["/", 5000000, ["^", 2, ["*", ["zoom"], 1.25]]]
              ]
            ]
          ],
          "layout": {
            "text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name_de"]],
            "text-font": ["Noto Sans Bold"],
            "symbol-sort-key": ["*", ["log10", ["max", ["number", ["get", "population"], 0], 1]], -10],
            "icon-image": "dot"
          },
          "paint": {"text-color": "#808080", "icon-color": "#808080"}
        }
      ]
    }

    """#,
]
