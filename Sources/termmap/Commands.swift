import ArgumentParser

// The command line, declared for swift-argument-parser: the root command, its subcommands and
// the option groups they share. Values are kept as the text given and checked when the command
// runs (`RenderCommand.init(_:)` and friends), so every bad value keeps its one-line message.
// Options that take a value take the next argument whatever it is (`.unconditional`), so
// negative numbers work: `--zoom -2`, `--center -33.9,151.2`.

/// `termmap`: the root command; `view` is its default subcommand (`termmap FILE…`).
struct Termmap: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "termmap",
    abstract: "An offline map in the terminal.",
    usage: """
      termmap [view] [<options>] [<FILE> ...]
      termmap render [<options>] [<FILE> ...]
      termmap info [--json] <FILE> ...
      termmap bench [serve] [<options>]
      termmap get (PLACE | --bbox W,S,E,N | --around LAT,LON --radius KM) [<options>]
      termmap regions [remove NAME]
      termmap serve (--authorized-keys FILE | --anonymous) [<options>] [<FILE> ...]
      termmap pick [<options>] [<FILE> ...]
      """,
    discussion: """
      FILE is GPX 1.0/1.1, GeoJSON, KML 2.2 or a route CSV, recognised by its contents. SOURCE \
      is an .mbtiles or .pmtiles file, a z/x/y tile directory, an http(s) URL template with \
      {z}/{x}/{y}, an http(s) .pmtiles or TileJSON URL, or a source name (osm, osm-vector, \
      openfreemap, or one from $XDG_CONFIG_HOME/termmap/config.toml). Vector tiles \
      (OpenMapTiles, Shortbread or Protomaps layers) are drawn with their schema's style; raster \
      tiles (PNG, JPEG) as braille dots or, with --raster blocks, as half blocks.

      Bad input: one line on stderr (one per file that fails), exit status 2.
      """,
    version: "termmap \(Usage.version)",
    subcommands: [
      View.self, Render.self, Info.self, Bench.self, Get.self, RegionsCommand.self, Serve.self,
      Style.self, Pick.self, GenerateManual.self,
    ],
    defaultSubcommand: View.self)
}

/// The options the viewer's commands share (view, pick).
protocol ViewerCommandLine {
  var position: PositionOptions { get }
  var map: MapOptions { get }
  var tiles: TileOptions { get }
  var keepRoutes: Bool { get }
  var settle: String? { get }
  var live: LiveOptions { get }
  var layers: LayerOptions { get }
  var input: FileArguments { get }
}

/// `--center` and `--zoom`: where the view opens (view, render, bench).
struct PositionOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The centre of the view, in degrees (latitude -90 to 90, longitude -180 to 180).",
      valueName: "LAT,LON"))
  var center: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The zoom level, -4 to 22 (below 0 the whole world fits a small terminal).",
      valueName: "Z"))
  var zoom: String?
}

/// What is drawn and how: --bbox, --charset, --style, --lang, --no-basemap (view and render).
struct MapOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The region to show: west, south, east, north in degrees (W > E crosses the antimeridian); not with --center or --zoom.",
      valueName: "W,S,E,N"))
  var bbox: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The characters the map is drawn with (default: braille, or ascii without a UTF-8 locale).",
      valueName: "braille|block|ascii"),
    completion: .list(["braille", "block", "ascii"]))
  var charset: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The map's colours: dark, light (for light terminals) or mono (no colour), default from the terminal's background, mono under NO_COLOR; or a MapLibre style: a style JSON file or an http(s) URL, whose sources are drawn (with --tiles: whose layers draw those tiles).",
      valueName: "STYLE"),
    completion: .list(["dark", "light", "mono"]))
  var style: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The labels' language: names in it (name:CODE) where the map has them (default: the locale's, LC_ALL, LC_MESSAGES or LANG).",
      valueName: "CODE"))
  var lang: String?

  @Flag(
    name: .customLong("no-basemap"), help: "Draw only your data and --tiles, not the offline map.")
  var noBasemap = false
}

/// Tile layers: --tiles (repeatable) and --raster (view and render).
struct TileOptions: ParsableArguments {
  @Option(
    parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "Add a tile layer on top of the map (repeatable): a file, directory, URL or source name.",
      valueName: "SOURCE"),
    completion: .file())
  var tiles: [String] = []

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "How raster tiles are drawn: braille dots (the default) or half blocks.",
      valueName: "dots|blocks"),
    completion: .list(["dots", "blocks"]))
  var raster: String?
}

/// The data files (view and render).
struct FileArguments: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "GPX, GeoJSON, KML, route CSV, TCX, FIT or IGC files, recognised by their contents.",
      valueName: "FILE"),
    completion: .file())
  var files: [String] = []
}

extension Termmap {
  /// `termmap [view] [options] [FILE…]`: the interactive viewer.
  struct View: ParsableCommand, ViewerCommandLine {
    static let configuration = CommandConfiguration(
      commandName: "view",
      abstract: "Open the interactive viewer (the default; ? shows the keys).",
      discussion: """
        With no file, the offline world map. Files are read in the background and the view \
        then fits them; --center and --zoom override the fit's centre and zoom (each alone \
        keeps the other from the fit; with no file, --center alone opens at zoom 10).
        """)

    @OptionGroup(title: "Position") var position: PositionOptions
    @OptionGroup(title: "Map") var map: MapOptions
    @OptionGroup(title: "Tile layers") var tiles: TileOptions

    @Flag(
      name: .customLong("keep-routes"),
      help: "Keep routes shown while the map moves (by default they are hidden until it settles).")
    var keepRoutes = false

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "Milliseconds without movement that end a change, 0 to 5000 (default 150).",
        valueName: "MS"))
    var settle: String?

    @OptionGroup(title: "Live position") var live: LiveOptions
    @OptionGroup(title: "Live layers") var layers: LayerOptions

    @OptionGroup var input: FileArguments
  }

  /// `termmap pick [options] [FILE…]`: the viewer on the terminal, a choice on stdout.
  struct Pick: ParsableCommand, ViewerCommandLine {
    static let configuration = CommandConfiguration(
      commandName: "pick",
      abstract: "Choose a place on the map: its GeoJSON feature goes to stdout (a map-shaped fzf).",
      discussion: """
        Opens the viewer, with the viewer's options and files, on the terminal (/dev/tty), so \
        stdout can be a pipe. Enter prints the selected marker's feature (a Point with the \
        properties its file gave it; with none selected, the centre of the map, with the zoom) \
        as one line of GeoJSON and exits 0; Esc or q prints nothing and exits 1. Enter on a \
        cluster zooms to its members, as in the viewer. Without a terminal: one line on \
        stderr, exit status 2.
        """)

    @OptionGroup(title: "Position") var position: PositionOptions
    @OptionGroup(title: "Map") var map: MapOptions
    @OptionGroup(title: "Tile layers") var tiles: TileOptions

    @Flag(
      name: .customLong("keep-routes"),
      help: "Keep routes shown while the map moves (by default they are hidden until it settles).")
    var keepRoutes = false

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "Milliseconds without movement that end a change, 0 to 5000 (default 150).",
        valueName: "MS"))
    var settle: String?

    @OptionGroup(title: "Live position") var live: LiveOptions
    @OptionGroup(title: "Live layers") var layers: LayerOptions

    @OptionGroup var input: FileArguments
  }

  /// `termmap render [options] [FILE…]`: one frame to stdout.
  struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "render",
      abstract: "Print one frame of the map to stdout.",
      discussion: """
        Prints exactly ROWS lines of COLS cells (one more with --status) and fits all loaded \
        data; --center or --zoom alone changes only that of the fit; --bbox goes alone.
        """)

    @OptionGroup(title: "Position") var position: PositionOptions

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "The frame's size in cells (default 80x24, at most 2000x1000).", valueName: "COLSxROWS"))
    var size: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "Colour escapes: auto (when stdout is a terminal and NO_COLOR is unset), always or never.",
        valueName: "auto|always|never"),
      completion: .list(["auto", "always", "never"]))
    var color: String?

    @OptionGroup(title: "Map") var map: MapOptions
    @OptionGroup(title: "Tile layers") var tiles: TileOptions

    @Flag(help: "Add a status line: the centre, the zoom, a scale bar and the credits.")
    var status = false

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "How long to wait for tiles from the network before printing without those still missing (default 15), and how long to read a --layer stream (default 3).",
        valueName: "SECONDS"))
    var wait: String?

    @OptionGroup(title: "Live layers") var layers: LayerOptions

    @OptionGroup var input: FileArguments
  }

  /// `termmap get`: a region cut from a PMTiles archive, for use offline.
  struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "get",
      abstract: "Cut a region from a PMTiles archive (a file or an http(s) URL) for offline use.",
      discussion: """
        Reads only what the region needs: the header and root directory, the leaf directories \
        that cover it and the tiles of zooms 0 to --maxzoom that meet it, their byte ranges \
        merged where the gaps are small and fetched several at a time. Writes a PMTiles archive \
        (whole or not at all) that `--tiles FILE` draws. Without --from (or [get] from in the \
        config file) the source is the Protomaps basemap of OpenStreetMap, zooms 0 to 15, as \
        Source Cooperative mirrors its latest daily build: \
        https://data.source.coop/protomaps/openstreetmap/v4.pmtiles \
        (© OpenStreetMap contributors, ODbL).
        """)

    @Argument(
      help: ArgumentHelp(
        "A place name (the viewer's / search: any script, typos forgiven; \"name, country\" narrows); the area grows with the place.",
        valueName: "PLACE"))
    var place: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "The region: west, south, east, north in degrees (W > E crosses the antimeridian).",
        valueName: "W,S,E,N"))
    var bbox: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The centre of a region given with --radius.", valueName: "LAT,LON"))
    var around: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The region's half width with --around, in km.", valueName: "KM"))
    var radius: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "A PMTiles archive: a file or an http(s) URL (default: [get] from in the config file, else the Protomaps planet).",
        valueName: "SOURCE"))
    var from: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The deepest zoom level cut (default 15).", valueName: "Z"))
    var maxzoom: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "Store the region under this name (in $XDG_DATA_HOME/termmap/regions), where the viewer and render find it; its names are indexed for / search.",
        valueName: "NAME"))
    var name: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Write the archive to this file instead.", valueName: "FILE"))
    var output: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Range requests in flight at once (default 4).", valueName: "N"))
    var parallel: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "Vector tile layers to leave out of the cut (e.g. buildings,pois).", valueName: "L,..."))
    var dropLayers: String?

    @Flag(help: "Print the region, the tiles per zoom, the bytes and the requests, and stop.")
    var dryRun = false

    @Flag(help: "Do not ask before a download over 500 MB.")
    var yes = false
  }

  /// `termmap serve`: the map over SSH, each connection with its own viewer.
  struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "serve",
      abstract: "Serve the map over SSH: each connection gets its own viewer (ssh -p PORT HOST).",
      discussion: """
        Sessions get a terminal with the map and nothing else: commands, sftp, port forwarding \
        and agent or X11 forwarding are refused. The user name may name a place (ssh -p 2222 \
        lyon@host opens at Lyon). The map options and FILEs are the same for every session. \
        Log lines (connect, auth, refusal, disconnect) go to stderr. SIGTERM or SIGINT ends \
        every session with a last line and exits 0; SIGHUP reads --authorized-keys, the \
        configuration file and the FILEs again (for sessions that start after it).
        """)

    @Option(
      help: ArgumentHelp(
        "The address and port to listen on (default 127.0.0.1:2222; 0.0.0.0:2222 for all).",
        valueName: "ADDR:PORT"))
    var listen = "127.0.0.1:2222"

    @Option(
      help: ArgumentHelp(
        "The host key: an Ed25519 key in OpenSSH's format, made (mode 0600) when missing (default ~/.local/share/termmap/ssh_host_ed25519_key).",
        valueName: "FILE"),
      completion: .file())
    var hostKey: String?

    @Option(
      help: ArgumentHelp(
        "Let in only the holders of these public keys (OpenSSH's authorized_keys format).",
        valueName: "FILE"),
      completion: .file())
    var authorizedKeys: String?

    @Flag(help: "Let anyone in, with any user name and no password.")
    var anonymous = false

    @Flag(
      help:
        "Check the options, the keys and the map, say what would be served, and exit (as sshd -t).")
    var check = false

    @Option(help: ArgumentHelp("Sessions at once, in all (default 100).", valueName: "N"))
    var maxSessions: String?

    @Option(
      help: ArgumentHelp(
        "Close a connection idle this long (seconds, default 1800; 0: never).",
        valueName: "SECONDS"))
    var idleTimeout: String?

    @Option(
      help: ArgumentHelp(
        "Serve the counters (sessions, frames, bytes out, refusals, connections) in Prometheus' text format at http://ADDR:PORT/metrics.",
        valueName: "ADDR:PORT"))
    var metrics: String?

    @OptionGroup(title: "Position") var position: PositionOptions
    @OptionGroup(title: "Map") var map: MapOptions
    @OptionGroup(title: "Tile layers") var tiles: TileOptions
    @OptionGroup(title: "Live layers") var layers: LayerOptions
    @OptionGroup var input: FileArguments
  }

  /// `termmap regions [remove NAME]`: the stored regions.
  struct RegionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "regions",
      abstract: "List the regions termmap get stored, or remove one (regions remove NAME).")

    @Argument(help: ArgumentHelp("remove NAME", valueName: "remove NAME"))
    var words: [String] = []
  }

  /// `termmap style test|eval|validate`: tools for style authors.
  struct Style: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "style",
      abstract: "Check MapLibre styles and expressions: validate, eval, test.",
      subcommands: [StyleValidate.self, StyleEval.self, StyleTest.self])
  }

  /// `termmap style validate FILE`: a style document checked.
  struct StyleValidate: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "validate",
      abstract: "Check a MapLibre style document (version 8); errors with their JSON path.",
      discussion: """
        Checks the version, sources and layers (id, type, source, source-layer, minzoom, \
        maxzoom) and compiles every filter and every paint and layout value termmap knows \
        with the property's type. Errors go to stderr as `layers[3].paint.line-width: …` and \
        exit with status 2; properties termmap does not know are warnings. A valid style \
        prints one line and exits 0.
        """)

    @Argument(help: ArgumentHelp("A style JSON file.", valueName: "FILE"), completion: .file())
    var file: String
  }

  /// `termmap style eval EXPRESSION [--zoom Z] [--feature GEOJSON]`.
  struct StyleEval: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "eval",
      abstract: "Evaluate a style expression; print the result as JSON.",
      discussion: """
        A compile or evaluation error is one line on stderr and exit status 2. Colours print \
        as "rgba(r,g,b,a)" strings.
        """)

    @Argument(help: ArgumentHelp("The expression, as JSON.", valueName: "EXPRESSION"))
    var expression: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The zoom level.", valueName: "Z"))
    var zoom: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "The type the result must have, as a property's: number, string, boolean, color, formatted, object or array (strings then become colours, say).",
        valueName: "TYPE"))
    var type: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "The feature: a GeoJSON Feature (properties, id, geometry) as JSON.", valueName: "GEOJSON"))
    var feature: String?
  }

  /// `termmap style test FILE`: expression test cases run.
  struct StyleTest: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "test",
      abstract: "Run a file of expression test cases; print failures and the pass rate.",
      discussion: """
        The file holds {"cases": [{"test", "expression", "zoom", "feature", "propertySpec", \
        "expect": {"value", "type"} or {"error"}}]}, the flattened form of MapLibre's \
        expression tests (see docs/styles.md). Exit status 1 when a case fails.
        """)

    @Flag(help: "Print every case, passed ones too.") var verbose = false

    @Argument(
      help: ArgumentHelp("A JSON file of test cases.", valueName: "FILE"), completion: .file())
    var file: String
  }

  /// `termmap info [--json] FILE…`: what each file holds.
  struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "info",
      abstract: "Describe data files: format, counts, extent, length, elevation and time.")

    @Flag(help: "Print JSON instead of text.") var json = false

    @Argument(
      help: ArgumentHelp(
        "GPX, GeoJSON, KML, route CSV, TCX, FIT or IGC files.", valueName: "FILE"),
      completion: .file())
    var files: [String]
  }

  /// `termmap bench [options]`: frame-time scenarios (see docs/benchmarks.md).
  struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "bench",
      abstract: "Measure frame times and memory (build with -c release).",
      discussion: """
        With --tiles SOURCE --center LAT,LON --zoom Z, measures that tile source's first, \
        cached and redrawn frames instead of the built-in scenarios. termmap bench serve \
        starts termmap serve and loads it over SSH instead: sessions typing keys (key-to-frame \
        times), memory per idle session, a session that never reads, connections opened and \
        dropped.
        """)

    @Flag(help: "Print JSON instead of text.") var json = false

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The frame's size in cells (default 160x48).", valueName: "COLSxROWS"))
    var size: String?

    @Flag(help: "Fewer frames and smaller data, for a quick look.") var quick = false

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "Run only the scenarios whose name starts with PREFIX.", valueName: "PREFIX"))
    var only: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "Measure this tile source (needs --center and --zoom).", valueName: "SOURCE"),
      completion: .file())
    var tiles: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "With --tiles: draw its vector tiles with this style (dark, light, mono, or a MapLibre style file or URL, applied by source-layer).",
        valueName: "STYLE"),
      completion: .file())
    var style: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "bench serve: sessions typing at once (default 100; --quick 10).", valueName: "N"))
    var sessions: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "bench serve: how long they type, in seconds (default 30; --quick 5).",
        valueName: "SECONDS"))
    var seconds: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "bench serve: connections opened and dropped (default 1000; --quick 100).",
        valueName: "N"))
    var connections: String?

    @Argument(
      help: ArgumentHelp(
        "serve: the load test of termmap serve (sessions over SSH typing keys, memory, connections) instead of the frame scenarios.",
        valueName: "serve"))
    var scenario: String?

    @OptionGroup(title: "Position") var position: PositionOptions
  }
}
