import Foundation
import Testing

@testable import TerminalUI

/// How a session front judges its link from its timed frames. The readings are given (no
/// clock): sizes and times of frames timed over the slow-link test's 1 Mbit/s line, a
/// 100 × 40 terminal (a full repaint counts 20,000 bytes).
@MainActor
@Suite("SessionFront: a frame proves a link slow; only a full repaint proves it fast")
struct SessionFrontLinkTests {
  func front() -> SessionFront {
    let link = SessionFront.Link(
      send: { _ in }, backlog: { 0 }, whenDrained: { _, _ in }, finish: { _, _ in })
    return SessionFront(
      options: ViewerOptions(), columns: 100, rows: 40, term: "xterm-256color",
      environment: [:], link: link)
  }

  @Test("a frame that left early after a smaller one read slow leaves the link slow")
  func earlyFrameProvesNothing() {
    let front = front()
    #expect(!front.linkIsSlow)
    // 6,386 bytes in 49.6 ms: a full repaint would take 155 ms.
    front.measured(bytes: 6386, took: .microseconds(49_600), fullRepaint: 20_000)
    #expect(front.linkIsSlow)
    // 7,873 bytes in 9.9 ms (25 ms for a full repaint at that rate): most of it fitted in
    // what the line holds in flight. The rule before took it as fast (a frame larger than
    // the one that read slow), and the next zoom key animated over the slow line.
    front.measured(bytes: 7873, took: .microseconds(9_900), fullRepaint: 20_000)
    #expect(front.linkIsSlow)
    // A whole full repaint within 48 ms: the line carries one in time.
    front.measured(bytes: 20_000, took: .milliseconds(40), fullRepaint: 20_000)
    #expect(!front.linkIsSlow)
  }

  @Test("a link is fast until a frame proves it slow; a slow full repaint proves it")
  func slowFullRepaint() {
    let front = front()
    front.measured(bytes: 7873, took: .microseconds(9_900), fullRepaint: 20_000)
    #expect(!front.linkIsSlow)
    front.measured(bytes: 20_000, took: .milliseconds(60), fullRepaint: 20_000)
    #expect(front.linkIsSlow)
  }
}
