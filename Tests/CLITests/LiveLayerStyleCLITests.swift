import Foundation
import Testing

@Suite("termmap render --layer: lines, areas and markers in their simplestyle")
struct LiveLayerStyleCLITests {
  let base = [
    "render", "--no-basemap", "--size", "40x11", "--center", "43.7,7.4", "--zoom", "8",
    "--layer", "-",
  ]

  /// A polygon filled solid red with a white outline, updated once by its id (first blue),
  /// and a marker whose marker-symbol names a Maki icon.
  let input =
    [
      "{\"type\":\"Feature\",\"id\":\"zone\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[7.2,43.6],[7.6,43.6],[7.6,43.8],[7.2,43.8],[7.2,43.6]]]},\"properties\":{\"fill\":\"#0000ff\"}}",
      "{\"type\":\"Feature\",\"id\":\"zone\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[7.1,43.6],[7.5,43.6],[7.5,43.8],[7.1,43.8],[7.1,43.6]]]},\"properties\":{\"stroke\":\"white\",\"fill\":\"#ff0000\",\"fill-opacity\":1}}",
      "{\"type\":\"Feature\",\"id\":\"port\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[7.42,43.73]},\"properties\":{\"title\":\"Port\",\"marker-symbol\":\"harbor\"}}",
    ].joined(separator: "\n") + "\n"

  @Test("The frame: the area's inside solid, the marker as the Maki glyph with its title")
  func frameAsText() throws {
    let r = try termmap(base + ["--color", "never"], input: input)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("⎈ Port"), "\(r.stdout)")
    // The inside of the area (its last place, 7.1–7.5 E): whole cells of dots.
    #expect(r.stdout.contains("⣿⣿⣿⣿⣿"), "\(r.stdout)")
    // Only the area's last geometry: west of the centre, nothing of it east of 7.5 E
    // (the first one reached 7.6).
    let rows = r.stdout.split(separator: "\n")
    let middle = Array(rows[5])
    #expect(!middle.suffix(8).contains("⣿"), "\(rows[5])")
  }

  @Test(
    "In colour: the fill red (xterm 196), the outline white (231), no blue left from the first message"
  )
  func frameInColour() throws {
    let r = try termmap(base + ["--color", "always"], input: input)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("38;5;196m⣿"), "\(r.stdout)")
    #expect(r.stdout.contains("38;5;231m"), "\(r.stdout)")
    #expect(!r.stdout.contains("38;5;21m"), "\(r.stdout)")
  }
}
