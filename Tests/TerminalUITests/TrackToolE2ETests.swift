import Foundation
import Testing

/// The track tool in a real terminal (tmux): the profile panel (`p`), the layer list (`L`),
/// measuring (`m`) and track colouring (`t`), issue 13.
@Suite("track tool in tmux", .serialized)
struct TrackToolE2ETests {
  static let ride = "Tests/MapDataTests/Fixtures/tracks/ride-2020-06-01.fit"
  static let korita = "Data/samples/korita-zbevnica.gpx"

  /// Starts the viewer on `files` and waits until they are drawn (the points are counted).
  func start(_ tmux: Tmux, _ files: [String], points: Int, log: String? = nil) throws {
    let env = log.map { "TERMMAP_EVENT_LOG=\($0) " } ?? ""
    try tmux.start(
      "unset NO_COLOR; \(env)\(Tmux.termmap) \(files.joined(separator: " ")); sleep 60")
    let (ok, screen) = try tmux.waitFor(timeout: 60) { $0.joined().contains("\(points) pts") }
    try #require(ok, "the viewer did not load the files:\n\(screen.joined(separator: "\n"))")
  }

  /// `termmap info --json FILE`'s object for the one file.
  func info(_ path: String, in tmux: Tmux) throws -> [String: Any] {
    let out = tmux.file("info.json")
    let status = try Tmux.spawn(
      [
        Tmux.termmap, "info", "--json",
        path.hasPrefix("/") ? path : Tmux.repositoryRoot.path + "/" + path,
      ],
      stdout: out)
    #expect(status == 0)
    let object =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out)))
      as? [String: Any]
    return try #require((object?["files"] as? [[String: Any]])?.first)
  }

  /// The (row, column) of the first `glyph` on the screen.
  func find(_ glyph: Character, _ screen: [String]) -> (Int, Int)? {
    for (r, line) in screen.enumerated() {
      if let i = line.firstIndex(of: glyph) {
        return (r, line.distance(from: line.startIndex, to: i))
      }
    }
    return nil
  }

  /// Braille cells per 256-colour or SGR foreground code in a `capture-pane -e` text.
  func brailleColours(_ captured: String) -> [String: Int] {
    var counts: [String: Int] = [:]
    var foreground = ""
    var scalars = captured.unicodeScalars[...]
    while let c = scalars.first {
      scalars = scalars.dropFirst()
      if c == "\u{1B}", scalars.first == "[" {
        let body = String(String.UnicodeScalarView(scalars.dropFirst().prefix { $0 != "m" }))
        scalars = scalars.dropFirst(body.unicodeScalars.count + 2)
        let codes = body.split(separator: ";").map(String.init)
        var k = 0
        while k < codes.count {
          let code = codes[k]
          if code == "0" || code == "39" || body.isEmpty { foreground = "" }
          if (30...37).contains(Int(code) ?? 0) || (90...97).contains(Int(code) ?? 0) {
            foreground = code
          }
          if code == "38", k + 2 < codes.count, codes[k + 1] == "5" {
            foreground = "38;5;" + codes[k + 2]
            k += 2
          }
          k += 1
        }
        if body.isEmpty { foreground = "" }
      } else if (0x2801...0x28FF).contains(c.value) {
        counts[foreground, default: 0] += 1
      }
    }
    return counts
  }

  @Test("p opens the profile with the track's statistics; the cursor moves the map marker")
  func profile() throws {
    let tmux = try Tmux(width: 120, height: 40)
    try start(tmux, [Self.ride], points: 96)
    let numbers = try info(Self.ride, in: tmux)
    try tmux.sendKeys("p")
    // The whole panel, not just its title (a capture can fall between two writes of a frame).
    let (open, screen) = try tmux.waitFor { s in
      let t = s.joined()
      return t.contains("elevation · cycling") && t.contains("▸ 0 m · -20 m") && t.contains("bpm")
        && t.contains("◆")
    }
    try #require(open, "\(screen.joined(separator: "\n"))")
    let text = screen.joined(separator: "\n")
    // The statistics are info's: 901.658 m, -23.8 to -20 m, heart rate 143-156 (150.031).
    #expect(numbers["length_m"] as? Double == 901.658)
    #expect(text.contains("distance  902 m"))
    let elevation = try #require(numbers["elevation_m"] as? [Double])
    #expect(abs(elevation[0] - -23.8) < 1e-9 && elevation[1] == -20)
    #expect(text.contains("elevation -24–-20 m"))
    #expect((numbers["heart_rate_bpm"] as? [Double])?[2] == 150.031)
    #expect(text.contains("heart     ⌀ 150  max 156 bpm"))
    #expect(text.contains("▸ 0 m · -20 m"))
    let before = try #require(find("◆", screen), "no marker on the map")
    // Shift-→ moves the cursor a tenth of the track; the marker follows on the map.
    try tmux.sendKeys("S-Right")
    try tmux.sendKeys("S-Right")
    try tmux.sendKeys("S-Right")
    let (moved, after) = try tmux.waitFor { s in
      !s.joined().contains("▸ 0 m") && find("◆", s).map { $0 != before } == true
    }
    #expect(moved, "the marker did not move:\n\(after.joined(separator: "\n"))")
    // v switches the graph to speed; p closes the panel.
    try tmux.sendKeys("v")
    #expect(try tmux.waitFor { $0.joined().contains("speed · cycling") }.ok)
    try tmux.sendKeys("p")
    #expect(try tmux.waitFor { !$0.joined().contains("· cycling") }.ok)
  }

  @Test("L lists the files with their colours; toggling one hides its track")
  func layers() throws {
    let tmux = try Tmux(width: 120, height: 40)
    try start(tmux, [Self.korita, Self.ride], points: 967)
    try tmux.sendKeys("L")
    let (open, screen) = try tmux.waitFor { s in
      s.joined().contains("korita-zbevnica.gpx  GPX  871 pts  14.91 km")
        && s.joined().contains("ride-2020-06-01.fit  FIT  96 pts  902 m")
        && s.joined().contains("[x] waypoints")
    }
    try #require(open, "\(screen.joined(separator: "\n"))")
    #expect(screen.joined().contains("[x] track  03-OCT-10 #2  358 pts  8.64 km"))
    #expect(screen.joined().contains("[x] waypoints  2 markers"))
    // Each file's ■ is in its colour: the colour its lines have on the map.
    let coloured = try tmux.captureWithColours()
    let lines = coloured.split(separator: "\n").map(String.init)
    let koritaLine = try #require(lines.first { $0.contains("korita-zbevnica.gpx") })
    let koritaColour = try #require(
      ["91", "95", "96", "92", "93", "94"].first { koritaLine.contains("\u{1B}[\($0)m■") },
      "\(koritaLine.debugDescription)")
    // Down to korita's file row (the files are listed in the order they finished loading);
    // f fits the map to it and closes the list.
    let listTop = try #require(screen.firstIndex { $0.contains("─ layers") })
    let koritaRow =
      try #require(screen.firstIndex { $0.contains("korita-zbevnica.gpx") }) - listTop - 1
    for _ in 0..<koritaRow { try tmux.sendKeys("Down") }
    try tmux.sendKeys("f")
    #expect(try tmux.waitFor { !$0.joined().contains("─ layers") }.ok)
    let (drawn, _) = try tmux.waitFor { _ in
      (try? brailleColours(tmux.captureWithColours())[koritaColour] ?? 0) ?? 0 > 30
    }
    #expect(drawn, "korita's track is not drawn in \(koritaColour) after f")
    // Space on its row hides the whole file.
    try tmux.sendKeys("L")
    _ = try tmux.waitFor { $0.joined().contains("─ layers") }
    try tmux.sendKeys("Space")
    #expect(try tmux.waitFor { $0.joined().contains("■ [ ] korita-zbevnica.gpx") }.ok)
    try tmux.sendKeys("Escape")
    let (hidden, _) = try tmux.waitFor { _ in
      (try? brailleColours(tmux.captureWithColours())[koritaColour] ?? 0) == 0
    }
    #expect(hidden, "korita's track is still drawn")
  }

  @Test("m measures a path whose length is info's geodesic length for the same points")
  func measure() throws {
    let tmux = try Tmux(width: 120, height: 40)
    let log = tmux.file("events.log")
    try start(tmux, [Self.korita], points: 871, log: log)
    for key in ["m", "l", "l", "m", "j", "j", "m"] { try tmux.sendKeys(key) }
    let (measured, screen) = try tmux.waitFor { $0.joined().contains("measure: 3 points") }
    try #require(measured, "\(screen.joined(separator: "\n"))")
    let status = try #require(screen.last { $0.contains("measure: 3 points") })
    // "measure: 3 points · 5.899 km · last leg …"
    let shown = try #require(
      status.components(separatedBy: " · ")[1].components(separatedBy: " ").first.flatMap(
        Double.init))
    // The same points, as the viewer logged them, in a route CSV for info.
    let logged = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
      .filter { $0.hasPrefix("measure point ") }
      .map { $0.dropFirst("measure point ".count).split(separator: " ").joined(separator: ",") }
    #expect(logged.count == 3)
    let csv = tmux.file("path.csv")
    try ("lat,lon\n" + logged.joined(separator: "\n") + "\n").write(
      toFile: csv, atomically: true, encoding: .utf8)
    let length = try #require(try info(csv, in: tmux)["length_m"] as? Double)
    let unit = status.contains("\(shown) km") ? 1000.0 : 1
    #expect(
      abs(shown * unit - length) <= (unit == 1000 ? 0.5 : 0.05), "status \(shown), info \(length)")
    // Esc ends measuring and says what was measured.
    try tmux.sendKeys("Escape")
    #expect(try tmux.waitFor { $0.joined().contains("measured 3 points") }.ok)
  }

  @Test("t colours the tracks by elevation with a legend, then speed, time and file again")
  func colouring() throws {
    let tmux = try Tmux(width: 120, height: 40)
    try start(tmux, [Self.korita], points: 871)
    try tmux.sendKeys("t")
    let (legend, screen) = try tmux.waitFor {
      $0.joined().contains(" elevation 722 m ") && $0.joined().contains("1051 m")
    }
    try #require(legend, "\(screen.joined(separator: "\n"))")
    #expect(screen.joined().contains("1051 m"))
    // The legs take many colours of the ramp (xterm 21 … 196), from greens to reds.
    let ramp = [21, 27, 33, 39, 45, 49, 48, 46, 82, 118, 154, 190, 226, 220, 214, 208, 202, 196]
    let (coloured, _) = try tmux.waitFor { _ in
      let counts = brailleColours((try? tmux.captureWithColours()) ?? "")
      let used = ramp.filter { (counts["38;5;\($0)"] ?? 0) > 0 }
      return used.count >= 6 && used.contains { $0 >= 202 } && used.contains { $0 <= 49 }
    }
    #expect(coloured, "the track is not drawn in the ramp's colours")
    try tmux.sendKeys("t")
    #expect(try tmux.waitFor { $0.joined().contains(" speed ") && $0.joined().contains("km/h") }.ok)
    try tmux.sendKeys("t")
    #expect(try tmux.waitFor { $0.joined().contains(" time 09:36") }.ok)
    try tmux.sendKeys("t")
    #expect(try tmux.waitFor { $0.joined().contains("colours: by file") }.ok)
  }
}
