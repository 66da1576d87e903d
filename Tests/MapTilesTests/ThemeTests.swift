import DotRaster
import Foundation
import MapGeometry
import MapStyle
import Testing

@testable import MapTiles
@testable import TermMapKit
@testable import TileData

@Suite("Themes: the built-in styles' colours, in 256 and 16 colours")
struct PaletteTests {
  /// The kinds a reader tells apart at a glance, each with the colours the OpenMapTiles style
  /// of a theme draws it in (its layers' colours).
  static func kinds(_ theme: BasemapStyle.Variant) -> [(String, [TermColor])] {
    let style = BasemapStyle.forSchema(.openMapTiles, variant: theme)
    func c(_ ids: String...) -> [TermColor] { ids.map { BuiltinColours.colour(style, $0)! } }
    return [
      ("motorways and trunk roads", c("road-motorway", "road-trunk")),
      ("primary and secondary", c("road-primary", "road-secondary")),
      ("minor and service", c("road-minor", "road-service")), ("paths", c("road-path")),
      ("buildings", c("building")), ("water", c("water")), ("parks", c("landcover-park")),
      ("railways", c("railway")),
    ]
  }

  @Test(
    "dark and light: every kind its own colour in 256 colours and its own of the basic 16",
    arguments: [BasemapStyle.Variant.dark, .light])
  func distinct(_ theme: BasemapStyle.Variant) {
    let name = theme.rawValue
    let kinds = Self.kinds(theme)
    for (a, ca) in kinds {
      for (b, cb) in kinds where a < b {
        #expect(Set(ca).isDisjoint(with: cb), "\(name): \(a) and \(b) share a colour")
        #expect(
          Set(ca.map(\.basic16)).isDisjoint(with: cb.map(\.basic16)),
          "\(name): \(a) and \(b) share a colour in 16 colours")
      }
    }
    // Nothing falls on the background's own colour in 16 colours.
    let background: Set<TermColor> = name == "dark" ? [.black] : [.white, .brightWhite]
    for (kind, colours) in kinds {
      #expect(
        Set(colours.map(\.basic16)).isDisjoint(with: background), "\(name): \(kind) unseen")
    }
  }

  @Test("mono: one grey; kinds told apart by width, dashes and texture")
  func mono() {
    #expect(Set(Self.kinds(.mono).flatMap(\.1)) == [TermColor(244)])
    for schema in VectorSchema.allCases {
      let style = BasemapStyle.forSchema(schema, variant: .mono)
      for layer in style.document.layers {
        #expect(
          BuiltinColours.colour(style, layer.id) == TermColor(244), "\(schema) \(layer.id)")
      }
    }
    let mono = BasemapStyle.mono
    func paint(_ id: String, _ name: String) -> StyleValue? {
      BuiltinColours.paint(mono, id, name)
    }
    #expect(paint("road-motorway", "line-width") == .number(8))
    #expect(paint("road-primary", "line-width") == .number(4))
    let layers = mono.document.layers
    #expect(
      StyledDrawPlan.fillPattern(metadata: layers.first { $0.id == "water" }!)
        != StyledDrawPlan.fillPattern(metadata: layers.first { $0.id == "landcover-park" }!))
    let dashes = ["road-path", "railway", "road-service"].map { paint($0, "line-dasharray") }
    #expect(Set(dashes.map { "\($0 as Any)" }).count == 3 && !dashes.contains(nil))
  }

  @Test("Monaco at zoom 14 in each theme: every kind on screen in its colour, street names")
  @MainActor
  func frame() throws {
    for theme in [BasemapStyle.Variant.dark, .light] {
      let map = MapView(columns: 160, rows: 48)
      let overlay = SourceTileOverlay(source: try MBTilesSource(path: monacoPath), variant: theme)
      map.addOverlay(overlay, level: .aboveRoads)
      map.setCenter(Coordinate(latitude: 43.7384, longitude: 7.4246), animated: false)
      map.setZoomLevel(14, animated: false)
      let f = map.renderCompleteFrame(timeout: 60).frame
      // (Paths show from zoom 15; Monaco has no motorway or trunk road.)
      for (kind, colours) in Self.kinds(theme) where kind != "paths" && !kind.hasPrefix("motorways")
      {
        #expect(cells(f, in: Set(colours)) > 5, "\(theme): \(kind)")
      }
      #expect(f.lines.joined().contains("Boulevard de Suisse"), "\(theme): a street name")
    }
  }
}

@Suite("Label language: name:xx where the tiles have it")
struct LabelLanguageTests {
  @Test("codes: a language, optionally with a script or region")
  func codes() {
    for good in ["fi", "en", "zh-Hant", "pt_BR", "ast"] { #expect(LabelLanguage.isValid(good)) }
    for bad in ["", "f", "english", "fi-", "zh-Hant-", "f1", "en;rm", "é"] {
      #expect(!LabelLanguage.isValid(bad), "\(bad)")
    }
  }

  @Test("from the locale: LC_ALL, then LC_MESSAGES, then LANG; C and POSIX mean none")
  func locale() {
    #expect(LabelLanguage.fromLocale(["LANG": "fi_FI.UTF-8"]) == "fi")
    #expect(LabelLanguage.fromLocale(["LANG": "fi_FI.UTF-8", "LC_MESSAGES": "sv_FI"]) == "sv")
    #expect(
      LabelLanguage.fromLocale(["LANG": "fi_FI", "LC_MESSAGES": "sv_FI", "LC_ALL": "ja_JP.UTF-8"])
        == "ja")
    #expect(LabelLanguage.fromLocale(["LANG": "sr_RS@latin"]) == "sr")
    #expect(LabelLanguage.fromLocale(["LANG": "de"]) == "de")
    for none in ["C", "C.UTF-8", "POSIX", ""] {
      #expect(LabelLanguage.fromLocale(["LANG": none]) == nil, "\(none)")
    }
    #expect(LabelLanguage.fromLocale(["LC_ALL": "", "LANG": "el_GR.UTF-8"]) == "el")
    #expect(LabelLanguage.fromLocale([:]) == nil)
  }

  @Test("a style localized: the language kept, none for nil or an empty code")
  func keys() {
    let s = BasemapStyle.dark.localized(to: "zh-Hant")
    #expect(s.language == "zh-Hant" && s != .dark && s.name == "dark")
    #expect(s.localized(to: nil) == .dark && s.localized(to: "") == .dark)
  }

  /// The place names of Monaco-Ville at zoom 15 from a fixture, labels in `language`.
  @MainActor
  func names(_ path: String, _ language: String?, setAfterwards: Bool = false) throws -> String {
    let map = MapView(columns: 160, rows: 48)
    let overlay = SourceTileOverlay(source: try MBTilesSource(path: path), variant: .dark)
    if !setAfterwards { overlay.language = language }
    map.addOverlay(overlay, level: .aboveRoads)
    map.setCenter(Coordinate(latitude: 43.7315, longitude: 7.4206), animated: false)
    map.setZoomLevel(15, animated: false)
    var f = map.renderCompleteFrame(timeout: 60).frame
    if setAfterwards {
      (map.renderer(for: overlay) as? VectorTileRenderer)?.language = language
      f = map.renderCompleteFrame(timeout: 60).frame
    }
    return f.lines.joined(separator: "\n")
  }

  @Test(
    "--lang en: Monaco-Ville becomes Monaco City (Shortbread name_en, Protomaps name:en)",
    arguments: [shortbreadPath, protomapsPath])
  @MainActor
  func english(_ path: String) throws {
    let local = try names(path, nil)
    #expect(local.contains("Monaco-Ville") && !local.contains("Monaco City"))
    let english = try names(path, "en")
    #expect(english.contains("Monaco City") && !english.contains("Monaco-Ville"))
    // A language the tiles do not have: the style's own names.
    #expect(try names(path, "fi").contains("Monaco-Ville"))
    // Set on the renderer after a frame: the next frame has the new names.
    let later = try names(path, "en", setAfterwards: true)
    #expect(later.contains("Monaco City") && !later.contains("Monaco-Ville"))
  }
}

@Suite("config.toml [style]: the theme and the labels' language")
struct StyleConfigTests {
  @Test("name and lang are read; the rest of the file is not looked at")
  func read() throws {
    let s = try TileSourceCatalog.styleSettings(
      "[style]\nname = \"light\"\nlang = \"sv\"\n[sources.x]\nnonsense = 1\n", path: "c.toml")
    #expect(s == StyleSettings(theme: .light, language: "sv"))
    #expect(try TileSourceCatalog.styleSettings("[cache]\nsize_mb = 5\n", path: "c") == .init())
    // The whole file, as `--tiles` reads it, accepts the section.
    #expect(throws: Never.self) {
      try TileSourceCatalog.parseConfig("[style]\nname = \"mono\"\n", path: "c")
    }
  }

  @Test(
    "a bad [style] is one line naming the file and the line",
    arguments: [
      (
        "[style]\nname = \"sepia\"\n",
        "c.toml:2: style.name must be dark, light, mono, a style file or an http(s) URL"
      ),
      (
        "[style]\nlang = \"english\"\n",
        "c.toml:2: style.lang must be a language code such as en, fi or zh-Hant"
      ),
      ("[style]\ncolour = \"red\"\n", "c.toml:2: style: unknown key \"colour\""),
      (
        "[style]\nname = 3\n",
        "c.toml:2: style.name must be dark, light, mono, a style file or an http(s) URL"
      ),
    ])
  func bad(_ text: String, _ message: String) {
    #expect {
      try TileSourceCatalog.styleSettings(text, path: "c.toml")
    } throws: { ($0 as? ConfigError)?.description == message }
  }
}
