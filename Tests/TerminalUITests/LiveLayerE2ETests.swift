import Foundation
import Testing

/// The row and column of `text` on a screen.
private func find(_ text: String, _ screen: [String]) -> (row: Int, column: Int)? {
  for (r, line) in screen.enumerated() {
    if let range = line.range(of: text) {
      return (r, line.distance(from: line.startIndex, to: range.lowerBound))
    }
  }
  return nil
}

@Suite("live layers in the viewer (tmux)", .serialized)
struct LiveLayerE2ETests {
  @Test("A FIFO fed by the test moves a marker; a malformed line is counted on the status line")
  func fifoMovesMarker() throws {
    let tmux = try Tmux(width: 100, height: 30)
    let fifo = tmux.file("targets.fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    try tmux.start(
      "\(Tmux.termmap) --no-basemap --center 43.7,7.4 --zoom 10 --layer \(fifo); sleep 60")
    // The viewer opens the FIFO for reading; until it has, opening it for writing fails
    // (ENXIO without a reader).
    var fd: Int32 = -1
    let end = Date().addingTimeInterval(60)
    while fd < 0 && Date() < end {
      fd = open(fifo, O_WRONLY | O_NONBLOCK)
      if fd < 0 { usleep(50_000) }
    }
    try #require(
      fd >= 0,
      "the viewer never opened the FIFO:\n\((try? tmux.capture())?.joined(separator: "\n") ?? "")")
    defer { close(fd) }
    func send(_ line: String) {
      let bytes = Array((line + "\n").utf8)
      _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
    send(
      "{\"type\":\"Feature\",\"id\":\"v\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[7.3,43.65]},\"properties\":{\"title\":\"Vega\",\"heading\":90}}"
    )
    let (up, first) = try tmux.waitFor(timeout: 60) { find("Vega", $0) != nil }
    try #require(up, "the marker did not come:\n\(first.joined(separator: "\n"))")
    let a = try #require(find("Vega", first))
    #expect(first.joined().contains("→ Vega"))
    send("this line is not GeoJSON")
    send(
      "{\"type\":\"Feature\",\"id\":\"v\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[7.5,43.75]},\"properties\":{\"heading\":0}}"
    )
    let (moved, second) = try tmux.waitFor(timeout: 30) { s in
      guard let b = find("Vega", s) else { return false }
      return b.row < a.row && b.column > a.column
    }
    #expect(moved, "\(second.joined(separator: "\n"))")
    #expect(second.joined().contains("↑ Vega"))
    // One marker: the old place is empty.
    #expect(second.joined().filter { $0 == "→" }.isEmpty)
    // The status line (the last line the viewer drew).
    let (counted, third) = try tmux.waitFor(timeout: 30) { s in
      let status = s.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
      return status.contains("1 target") && status.contains("1 bad")
    }
    #expect(counted, "\(third.joined(separator: "\n"))")
  }
}
