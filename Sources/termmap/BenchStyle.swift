import Foundation
import MapStyle
import MapTiles
import TermMapKit

extension BenchCommand {
  /// Style loading (issue 22): a 300-layer style document generated here (fills, lines and
  /// symbols over OpenMapTiles source layers, the way OpenFreeMap's liberty writes them) read
  /// with `StyleDocument(data:)` ("parse"), then compiled as a styled overlay compiles it up front:
  /// `StyledVectorTileRenderer`'s draw plan and `StyleLabels` ("compile"); "load" is both.
  /// Median and p95 over several runs.
  ///
  /// `TERMMAP_BENCH_STYLES` (paths separated by `:`) adds the same three figures for each of
  /// those style files (published styles kept outside the repository), named after the file.
  func styleScenarios(quick: Bool) throws -> [Result] {
    var out = try styleLoad(
      "style-300", Data(Self.benchStyleJSON(layers: 300).utf8), quick: quick)
    let files = ProcessInfo.processInfo.environment["TERMMAP_BENCH_STYLES"] ?? ""
    for path in files.split(separator: ":") {
      let url = URL(fileURLWithPath: String(path))
      let data = try Data(contentsOf: url)
      let document = try StyleDocument(data: data)
      let source =
        document.sourceIDs.first { document.sources[$0]?.kind == .vector } ?? "openmaptiles"
      out += try styleLoad(
        "style-" + url.deletingPathExtension().lastPathComponent, data, source: source,
        quick: quick)
    }
    return out
  }

  /// Parse, compile and load times of one style document.
  func styleLoad(_ prefix: String, _ data: Data, source: String = "openmaptiles", quick: Bool)
    throws -> [Result]
  {
    let runs = quick ? 9 : 41
    var parse: [Double] = []
    var compile: [Double] = []
    var load: [Double] = []
    let clock = ContinuousClock()
    let overlay = TileOverlay(urlTemplate: nil)
    var layerCount = 0
    var diagnostics = 0
    Memory.resetPeak()
    for _ in 0..<runs {
      let t0 = clock.now
      let document = try StyleDocument(data: data)
      let t1 = clock.now
      let renderer = StyledVectorTileRenderer(
        overlay: overlay, document: document, sourceID: source)
      let labels = StyleLabels(document: document, sourceID: source)
      let t2 = clock.now
      layerCount = document.layers.count
      diagnostics = document.diagnostics.count
      withExtendedLifetime((renderer, labels)) {}
      parse.append(Self.milliseconds(t1 - t0))
      compile.append(Self.milliseconds(t2 - t1))
      load.append(Self.milliseconds(t2 - t0))
    }
    let peak = Double(Memory.peakResidentBytes()) / 1_048_576
    func result(_ name: String, _ times: [Double], _ note: String) -> Result {
      let t = times.sorted()
      return Result(
        name: name, frames: t.count, median: t[t.count / 2],
        p95: t[min(t.count - 1, Int(Double(t.count) * 0.95))], peakRSS: peak, note: note)
    }
    let kb = Double(data.count) / 1024
    return [
      result(
        prefix + "-parse", parse,
        String(
          format: "StyleDocument(data:), %d layers, %.0f KB, %d diagnostics", layerCount, kb,
          diagnostics)),
      result(prefix + "-compile", compile, "draw plan and StyleLabels"),
      result(prefix + "-load", load, "parse and compile"),
    ]
  }

  /// A style document of `layers` layers over OpenMapTiles: land cover and land use fills with
  /// legacy and expression filters, water, buildings, roads as casing and fill per class and
  /// tunnel/bridge/ground with `interpolate` widths, boundaries, and symbol layers with
  /// `coalesce` text fields, in the proportions of OpenFreeMap's liberty.
  static func benchStyleJSON(layers count: Int) -> String {
    var layers: [String] = []
    let fillClasses = [
      ("landcover", "wood"), ("landcover", "grass"), ("landcover", "farmland"),
      ("landcover", "wetland"), ("landcover", "sand"), ("landcover", "ice"),
      ("landuse", "residential"), ("landuse", "commercial"), ("landuse", "industrial"),
      ("landuse", "cemetery"), ("landuse", "hospital"), ("landuse", "school"),
      ("landuse", "stadium"), ("landuse", "railway"), ("park", "park"), ("park", "nature_reserve"),
    ]
    let roadClasses = [
      "motorway", "trunk", "primary", "secondary", "tertiary", "minor", "service", "track",
      "path", "rail", "transit",
    ]
    let brunnels = ["tunnel", "ground", "bridge"]
    let placeClasses = [
      "continent", "country", "state", "city", "town", "village", "suburb", "hamlet",
      "neighbourhood", "island",
    ]
    func hex(_ i: Int) -> String {
      String(format: "#%02x%02x%02x", (i * 37) % 256, (i * 91 + 40) % 256, (i * 53 + 90) % 256)
    }
    var i = 0
    func add(_ s: String) {
      if layers.count < count { layers.append(s) }
    }
    add(
      #"{"id":"background","type":"background","paint":{"background-color":"rgb(239,239,239)"}}"#)
    while layers.count < count {
      let round = i
      i += 1
      // Fills: a legacy filter and an expression filter per class.
      for (n, (sourceLayer, cls)) in fillClasses.enumerated() {
        add(
          #"{"id":"fill_\#(sourceLayer)_\#(cls)_\#(round)","type":"fill","source":"openmaptiles","source-layer":"\#(sourceLayer)","#
            + (n % 2 == 0
              ? #""filter":["all",["==","$type","Polygon"],["==","class","\#(cls)"]],"#
              : #""filter":["match",["get","class"],["\#(cls)","\#(cls)_alt"],true,false],"#)
            + #""paint":{"fill-color":"\#(hex(n + round))","fill-opacity":["interpolate",["linear"],["zoom"],8,0.4,14,0.8]}}"#
        )
      }
      add(
        #"{"id":"water_\#(round)","type":"fill","source":"openmaptiles","source-layer":"water","filter":["all",["!=",["get","intermittent"],1],["!=",["get","brunnel"],"tunnel"]],"paint":{"fill-color":"rgb(158,189,255)"}}"#
      )
      add(
        #"{"id":"waterway_\#(round)","type":"line","source":"openmaptiles","source-layer":"waterway","filter":["match",["get","class"],["river","canal"],true,false],"paint":{"line-color":"rgb(160,200,240)","line-width":["interpolate",["exponential",1.3],["zoom"],8,0.5,20,6]}}"#
      )
      add(
        #"{"id":"building_\#(round)","type":"fill","source":"openmaptiles","source-layer":"building","minzoom":13,"paint":{"fill-color":{"base":1,"stops":[[15.5,"rgb(242,234,226)"],[16,"rgb(223,219,215)"]]},"fill-antialias":true}}"#
      )
      // Roads: casing and road per class and tunnel/ground/bridge.
      for (n, cls) in roadClasses.enumerated() {
        for brunnel in brunnels {
          let brunnelFilter =
            brunnel == "ground"
            ? #"["match",["get","brunnel"],["bridge","tunnel"],false,true]"#
            : #"["==",["get","brunnel"],"\#(brunnel)"]"#
          for (part, width) in [("casing", 1.6), ("road", 1.0)] {
            add(
              #"{"id":"\#(brunnel)_\#(cls)_\#(part)_\#(round)","type":"line","source":"openmaptiles","source-layer":"transportation","minzoom":\#(min(n + 4, 14)),"filter":["all",\#(brunnelFilter),["==",["get","class"],"\#(cls)"],["!=",["get","ramp"],1]],"layout":{"line-join":"round","line-cap":"\#(brunnel == "tunnel" ? "butt" : "round")"},"paint":{"line-color":"\#(hex(n * 3 + round))","line-width":["interpolate",["exponential",1.2],["zoom"],5,\#(0.4 * width),12,\#(2 * width),20,\#(22 * width)],"line-opacity":\#(part == "casing" ? 1 : 0.9)\#(cls == "path" ? #","line-dasharray":[1.5,0.75]"# : "")}}"#
            )
          }
        }
      }
      add(
        #"{"id":"boundary_\#(round)","type":"line","source":"openmaptiles","source-layer":"boundary","filter":["all",["in","admin_level",3,4],["==","maritime",0]],"paint":{"line-color":"rgb(158,156,171)","line-dasharray":[5,1],"line-width":{"base":1.4,"stops":[[4,0.4],[5,1],[12,1.8]]}}}"#
      )
      // Labels: road names, water names, places, POIs by rank.
      add(
        #"{"id":"road_label_\#(round)","type":"symbol","source":"openmaptiles","source-layer":"transportation_name","filter":["match",["geometry-type"],["LineString","MultiLineString"],true,false],"layout":{"symbol-placement":"line","text-field":["coalesce",["get","name:en"],["get","name:latin"],["get","name"]],"text-font":["Noto Sans Regular"],"text-size":{"base":1,"stops":[[13,12],[14,13]]}},"paint":{"text-color":"rgb(119,102,85)","text-halo-color":"rgba(255,255,255,0.8)","text-halo-width":1}}"#
      )
      add(
        #"{"id":"water_name_\#(round)","type":"symbol","source":"openmaptiles","source-layer":"water_name","layout":{"text-field":["case",["has","name:nonlatin"],["concat",["get","name:latin"]," ",["get","name:nonlatin"]],["coalesce",["get","name_en"],["get","name"]]],"text-font":["Noto Sans Italic"],"text-size":14},"paint":{"text-color":"rgb(73,94,145)"}}"#
      )
      for (n, cls) in placeClasses.enumerated() {
        add(
          #"{"id":"place_\#(cls)_\#(round)","type":"symbol","source":"openmaptiles","source-layer":"place","minzoom":\#(n),"maxzoom":\#(n + 10),"filter":["all",["==","class","\#(cls)"],["<=",["get","rank"],\#(n + 5)]],"layout":{"text-field":["coalesce",["get","name:en"],["get","name"]],"text-font":["Noto Sans \#(n < 4 ? "Bold" : "Regular")"],"text-size":["interpolate",["linear"],["zoom"],\#(n),\#(10 + n),\#(n + 8),\#(16 + n)],"text-transform":"\#(n < 3 ? "uppercase" : "none")","symbol-sort-key":["get","rank"]},"paint":{"text-color":"\#(hex(n))","text-halo-width":1.2}}"#
        )
      }
      for rank in 1...4 {
        add(
          #"{"id":"poi_r\#(rank)_\#(round)","type":"symbol","source":"openmaptiles","source-layer":"poi","minzoom":\#(13 + rank),"filter":["all",["==","$type","Point"],[">=","rank",\#(rank * 7 - 6)],["<=","rank",\#(rank * 7)]],"layout":{"icon-image":["match",["get","subclass"],["florist","furniture"],["get","subclass"],["get","class"]],"text-field":"{name:latin}\n{name:nonlatin}","text-font":["Noto Sans Italic"],"text-size":12,"text-anchor":"top","text-offset":[0,0.6]},"paint":{"text-color":"rgb(102,102,102)","text-halo-width":1}}"#
        )
      }
    }
    return
      #"{"version":8,"name":"termmap bench \#(count)","sources":{"openmaptiles":{"type":"vector","url":"https://tiles.example.org/planet"}},"glyphs":"https://tiles.example.org/fonts/{fontstack}/{range}.pbf","sprite":"https://tiles.example.org/sprites/liberty","layers":["#
      + layers.joined(separator: ",\n") + "]}"
  }
}
