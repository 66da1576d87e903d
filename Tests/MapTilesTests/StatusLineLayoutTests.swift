import DotRaster
import MapTiles
import Testing

/// The status line at 80 columns: the user's own state first, the credits never dropped.
@Suite("Status line: parts by priority, credits kept")
struct StatusLineLayoutTests {
  typealias Part = StatusLineLayout.Part
  let credits = ["© OpenStreetMap contributors", "Natural Earth", "GeoNames"]

  func live() -> [Part] {
    [
      Part("43.73381, 7.41880", priority: 1), Part("z14.0", priority: 3),
      Part("├────┤ 200 m", priority: 5), Part("follow", priority: 0),
      Part("3D fix", priority: 0), Part("8/11 sats", priority: 0),
      Part("25.2 km/h", priority: 0), Part("2 s", priority: 0), Part("871 pts", priority: 6),
    ]
  }

  @Test("80 columns: the fix, speed and follow state stay, the credits stay, the rest goes")
  func liveAtEighty() {
    let f = StatusLineLayout.fit(live(), attribution: credits, columns: 80, separator: " · ")
    // The centre (the fix itself, when following), zoom, scale bar and count make room.
    #expect(f.left == "follow · 3D fix · 8/11 sats · 25.2 km/h · 2 s")
    #expect(f.credits.hasPrefix("© OpenStreetMap"))
    #expect(!f.complete)
    #expect(CellBuffer.displayWidth(of: f.left) + 2 + CellBuffer.displayWidth(of: f.credits) <= 80)
  }

  @Test("wide enough: every part in its order, the credits whole")
  func wide() {
    let f = StatusLineLayout.fit(live(), attribution: credits, columns: 160, separator: " · ")
    #expect(f.complete)
    #expect(f.left == live().map(\.text).joined(separator: " · "))
    #expect(f.credits == "© OpenStreetMap · Natural Earth · GeoNames")
  }

  @Test("very narrow: what fits of the most important parts, and the credits")
  func narrow() {
    let f = StatusLineLayout.fit(live(), attribution: credits, columns: 30, separator: " | ")
    #expect(f.left == "follow")
    #expect(f.credits == "© OpenStreetMap · Na…")
    let tiny = StatusLineLayout.fit(
      [Part("a very long selected marker name", priority: 0)], attribution: credits, columns: 24,
      separator: " | ")
    #expect(tiny.left == "a ver…")
    #expect(tiny.credits == "© OpenStreetMap…")
  }

  @Test("no credits: the parts get the whole line")
  func noCredits() {
    let f = StatusLineLayout.fit(live(), attribution: [], columns: 80, separator: " · ")
    #expect(f.credits.isEmpty)
    #expect(f.left.contains("25.2 km/h") && f.left.contains("z14.0"))
  }
}
