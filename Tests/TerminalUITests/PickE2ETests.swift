import Foundation
import Testing

/// `termmap pick` in a real terminal (tmux) with its standard output in a file or a pipe: the
/// map on the terminal, the feature in the file, the exit status, and the terminal's settings
/// as they were, whichever way it ends.
@Suite("termmap pick in tmux", .serialized)
struct PickE2ETests {
  static let route = "Data/samples/lisbon-walk.csv"

  /// Starts `termmap pick` on the walk, its stdout into `out.json` (or through `pipe`), in a
  /// shell that records `stty -a` before and after and the exit status; waits for the map.
  func startPick(_ tmux: Tmux, pipe: String = "", extra: String = "") throws -> (
    out: String, log: String
  ) {
    let out = tmux.file("out.json")
    let log = tmux.file("events.log")
    let before = tmux.file("stty.before")
    let after = tmux.file("stty.after")
    try tmux.start(
      "stty -a > \(before).tmp; mv \(before).tmp \(before);"
        + " TERMMAP_EVENT_LOG=\(log) \(Tmux.termmap) pick --no-basemap \(extra) \(Self.route)"
        + " \(pipe) > \(out); echo \"EXITED $?\"; stty -a > \(after).tmp; mv \(after).tmp \(after);"
        + " sleep 60")
    // Loaded (a marker shows; with --follow the map may have moved to the fix, away from
    // Rossio) and the hint said.
    let (ok, screen) = try tmux.waitFor(timeout: 60) { s in
      s.joined().contains("Cais do Sodré") && s.joined().contains("pick: Enter prints")
    }
    try #require(ok, "pick did not show the walk:\n\(screen.joined(separator: "\n"))")
    return (out, log)
  }

  /// The exit status the shell printed, once it has.
  func exitStatus(_ tmux: Tmux) throws -> Int? {
    let (_, screen) = try tmux.waitFor(timeout: 30) { s in s.contains { $0.hasPrefix("EXITED") } }
    return screen.first { $0.hasPrefix("EXITED") }.flatMap { Int($0.dropFirst(7)) }
  }

  /// The terminal's settings before and after, once the shell has written them.
  func settings(_ tmux: Tmux) throws -> (before: String, after: String) {
    let path = tmux.file("stty.after")
    let (written, _) = try tmux.waitFor(timeout: 30) { _ in
      FileManager.default.fileExists(atPath: path)
    }
    try #require(written, "the shell did not record the settings after pick")
    return (
      try String(contentsOfFile: tmux.file("stty.before"), encoding: .utf8),
      try String(contentsOfFile: path, encoding: .utf8)
    )
  }

  /// The name of the selected marker on the status line ("▸ Rossio").
  func selected(_ screen: [String]) -> String? {
    guard let line = screen.last(where: { $0.contains("▸ ") }),
      let r = line.range(of: "▸ ")
    else { return nil }
    return String(line[r.upperBound...].prefix { $0 != "·" }).trimmingCharacters(in: .whitespaces)
  }

  @Test("move, select a waypoint, Enter: out.json holds its feature as one line; exit 0")
  func picksSelected() throws {
    let tmux = try Tmux()
    let (out, _) = try startPick(tmux)
    // Move away and back (the pick hint gives the status line back at the first key), then
    // select the marker nearest the centre.
    try tmux.sendKeys("l")
    try tmux.sendKeys("h")
    try tmux.waitFor { s in !s.joined().contains("pick: Enter prints") }
    try tmux.sendKeys("Tab")
    let (ok, screen) = try tmux.waitFor { selected($0) != nil }
    try #require(ok, "no marker selected:\n\(screen.joined(separator: "\n"))")
    let name = try #require(selected(screen))
    try tmux.sendKeys("Enter")
    #expect(try exitStatus(tmux) == 0)
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1, "\(text)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(json["type"] as? String == "Feature")
    let geometry = try #require(json["geometry"] as? [String: Any])
    #expect(geometry["type"] as? String == "Point")
    let properties = try #require(json["properties"] as? [String: Any])
    #expect(properties["name"] as? String == name)
    // The file's own columns: the description too.
    #expect((properties["desc"] as? String)?.isEmpty == false)
    let (before, after) = try settings(tmux)
    #expect(before == after)
  }

  @Test("Esc prints nothing and exits 1, the terminal as it was")
  func escCancels() throws {
    let tmux = try Tmux()
    let (out, _) = try startPick(tmux)
    try tmux.sendKeys("Tab")
    try tmux.sendKeys("Escape")
    #expect(try exitStatus(tmux) == 1)
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "")
    let (before, after) = try settings(tmux)
    #expect(before == after)
  }

  @Test("pick --layer: a live target selected and picked: its feature, id and properties")
  func picksLiveTarget() throws {
    let tmux = try Tmux()
    let feed = tmux.file("boats.ndjson")
    try
      ("{\"type\":\"Feature\",\"id\":\"boat-7\",\"properties\":{\"title\":\"Seagull\","
      + "\"speed\":4.5},\"geometry\":{\"type\":\"Point\",\"coordinates\":[5.0,45.0]}}\n")
      .write(toFile: feed, atomically: true, encoding: .utf8)
    let out = tmux.file("out.json")
    try tmux.start(
      "\(Tmux.termmap) pick --no-basemap --center 45,5 --zoom 14 --layer \(feed) > \(out);"
        + " echo \"EXITED $?\"; sleep 60")
    let (shown, screen) = try tmux.waitFor(timeout: 60) { $0.joined().contains("Seagull") }
    try #require(shown, "\(screen.joined(separator: "\n"))")
    try tmux.sendKeys("Tab")
    let (chosen, now) = try tmux.waitFor { selected($0)?.hasPrefix("Seagull") == true }
    try #require(chosen, "\(now.joined(separator: "\n"))")
    try tmux.sendKeys("Enter")
    #expect(try exitStatus(tmux) == 0)
    let text = try String(contentsOfFile: out, encoding: .utf8)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    #expect(json["id"] as? String == "boat-7", "\(text)")
    let properties = json["properties"] as? [String: Any]
    #expect(properties?["title"] as? String == "Seagull", "\(text)")
    #expect(properties?["speed"] as? Double == 4.5, "\(text)")
  }

  @Test("q prints nothing and exits 1")
  func qCancels() throws {
    let tmux = try Tmux()
    let (out, _) = try startPick(tmux)
    try tmux.sendKeys("q")
    #expect(try exitStatus(tmux) == 1)
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "")
  }

  @Test("Enter with nothing selected: the centre the status line showed, as a Point with the zoom")
  func picksCentre() throws {
    let tmux = try Tmux()
    let (out, _) = try startPick(tmux)
    // The message goes after a few seconds; any key does not clear it, so read the centre
    // from the feature and compare with a frame rendered at the same view.
    try tmux.sendKeys("Enter")
    #expect(try exitStatus(tmux) == 0)
    let text = try String(contentsOfFile: out, encoding: .utf8)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let geometry = try #require(json["geometry"] as? [String: Any])
    let c = try #require(geometry["coordinates"] as? [Double])
    // The walk's middle: inside its box.
    #expect(c.count == 2)
    #expect((-9.1450)...(-9.1365) ~= c[0], "\(c)")
    #expect((38.7057)...(38.7139) ~= c[1], "\(c)")
    let properties = try #require(json["properties"] as? [String: Any])
    let zoom = try #require(properties["zoom"] as? Double)
    #expect(zoom > 12 && zoom < 19)
  }

  @Test("termmap pick … | cat: the feature comes through the pipe")
  func throughAPipe() throws {
    let tmux = try Tmux()
    let (out, _) = try startPick(tmux, pipe: "| cat")
    try tmux.sendKeys("Tab")
    let (ok, _) = try tmux.waitFor { selected($0) != nil }
    try #require(ok)
    try tmux.sendKeys("Enter")
    _ = try exitStatus(tmux)
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.hasPrefix(#"{"type":"Feature","geometry":{"type":"Point""#), "\(text)")
    #expect(text.contains(#""name":"A Brasileira""#))
  }

  @Test(
    "T: the panel lists the markers by distance; typing filters; Enter opens the callout; Enter picks"
  )
  func targetsPanelThenPick() throws {
    let tmux = try Tmux()
    let (out, _) = try startPick(tmux)
    try tmux.sendKeys("T")
    var (ok, screen) = try tmux.waitFor { s in s.joined().contains("targets: 3 · from the centre") }
    try #require(ok, "no targets panel:\n\(screen.joined(separator: "\n"))")
    // Nearest the centre first, each with its distance and bearing.
    let rows = screen.filter {
      $0.range(of: #"\d+ m  [NSEW]{1,2} \d{3}°"#, options: .regularExpression) != nil
    }
    #expect(rows.count == 3, "\(screen.joined(separator: "\n"))")
    #expect(rows.first?.contains("› A Brasileira") == true)
    try tmux.type("sod")
    (ok, screen) = try tmux.waitFor { s in s.joined().contains("targets: 1 of 3") }
    #expect(ok, "\(screen.joined(separator: "\n"))")
    #expect(screen.contains { $0.contains("› Cais do Sodré") && $0.contains("SW") })
    try tmux.sendKeys("Enter")
    (ok, screen) = try tmux.waitFor { s in
      s.joined().contains("Ferry and train station by the river")
        && !s.joined().contains("targets:")
    }
    #expect(ok, "no callout:\n\(screen.joined(separator: "\n"))")
    #expect(screen.joined().contains("38.70570, -9.14500"))
    #expect(screen.last { $0.contains("▸ ") }?.contains("▸ Cais do Sodré") == true)
    try tmux.sendKeys("Enter")
    #expect(try exitStatus(tmux) == 0)
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.contains(#""name":"Cais do Sodré""#), "\(text)")
  }

  @Test("T with a live position: Tab measures from you (a --follow fix by Cais do Sodré)")
  func targetsFromYou() throws {
    let tmux = try Tmux()
    let position = tmux.file("position.csv")
    try "lat,lon\n38.7056,-9.1449\n".write(toFile: position, atomically: true, encoding: .utf8)
    _ = try startPick(tmux, extra: "--follow \(position)")
    try tmux.sendKeys("T")
    try tmux.waitFor { s in s.joined().contains("targets: 3 · from the centre") }
    try tmux.sendKeys("Tab")
    let (ok, screen) = try tmux.waitFor { s in s.joined().contains("targets: 3 · from you") }
    try #require(ok, "\(screen.joined(separator: "\n"))")
    let rows = screen.filter {
      $0.range(of: #"[NSEW]{1,2} \d{3}°"#, options: .regularExpression) != nil
    }
    #expect(rows.count == 3)
    // 14 m from the fix, to its north-west; then the others, farther.
    #expect(rows.first?.contains("› Cais do Sodré") == true, "\(rows)")
    #expect(rows.first?.contains("14 m  NW 322°") == true, "\(rows)")
    #expect(rows.last?.contains("Rossio") == true)
    try tmux.sendKeys("Escape")
    try tmux.sendKeys("q")
    #expect(try exitStatus(tmux) == 1)
  }

  @Test("SIGTERM: nothing printed, status 143, the terminal as it was")
  func sigterm() throws {
    let tmux = try Tmux()
    let (out, log) = try startPick(tmux)
    let events = try String(contentsOfFile: log, encoding: .utf8)
    let pid = try #require(
      events.split(separator: "\n").first { $0.hasPrefix("pid ") }.flatMap {
        Int32($0.dropFirst(4))
      })
    kill(pid, SIGTERM)
    #expect(try exitStatus(tmux) == 143)
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "")
    let (before, after) = try settings(tmux)
    #expect(before == after)
  }
}
