import Foundation
import Testing

/// `--style FILE` in the viewer: the style's layers it cannot use are a note on the status
/// line (render prints them on stderr; the viewer has the screen).
@Suite("viewer --style FILE in tmux", .serialized)
struct StyleNoteE2ETests {
  @Test("a style with a layer that does not compile: the map is drawn and the note shown")
  func noteOnStatusLine() throws {
    let tmux = try Tmux()
    let style = tmux.file("style.json")
    try """
    {"version": 8,
     "sources": {"omt": {"type": "vector", "url": "pmtiles://unused.pmtiles"}},
     "layers": [
      {"id": "water", "type": "fill", "source": "omt", "source-layer": "water",
       "paint": {"fill-color": "#2040ff"}},
      {"id": "roads", "type": "line", "source": "omt", "source-layer": "transportation",
       "paint": {"line-color": "#ff2020"}},
      {"id": "bad", "type": "line", "source": "omt", "source-layer": "transportation",
       "paint": {"line-width": "wide"}}
     ]}
    """.write(toFile: style, atomically: true, encoding: .utf8)
    try tmux.start(
      "\(Tmux.termmap) --no-basemap --tiles \(Tmux.repositoryRoot.path)/Data/monaco.mbtiles --style \(style)"
        + " --center 43.7375,7.4209 --zoom 14; echo \"EXITED $?\"; sleep 60")
    // The note, and the map itself: the style's roads and water.
    let (ok, screen) = try tmux.waitFor(timeout: 60) { s in
      s.joined().contains("style: layers[2].paint.line-width")
        && s.joined().unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }.count > 200
    }
    #expect(ok, "\(screen.joined(separator: "\n"))")
  }
}
