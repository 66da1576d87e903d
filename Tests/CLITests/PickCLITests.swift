import Foundation
import Testing

/// `termmap pick` without a terminal: one line on stderr, exit status 2, nothing on stdout.
@Suite("termmap pick without a terminal")
struct PickCLITests {
  @Test("no controlling terminal (setsid): one line, exit 2")
  func noTerminal() throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
    p.arguments = [
      "-w", termmapBinary.path, "pick", "--no-basemap", "Data/samples/lisbon-walk.csv",
    ]
    p.currentDirectoryURL = repositoryRoot
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    #expect(p.terminationStatus == 2)
    #expect(o.isEmpty)
    let text = String(decoding: e, as: UTF8.self)
    #expect(text.hasPrefix("termmap: pick: no terminal to show the map on (/dev/tty: "), "\(text)")
    #expect(text.filter { $0 == "\n" }.count == 1)
  }

  @Test("a bad option is refused before the terminal is touched")
  func badOption() throws {
    let r = try termmap(["pick", "--zoom", "99"])
    #expect(r.status == 2)
    #expect(r.stdout.isEmpty)
    #expect(r.stderr == "termmap: --zoom: 99.0 is outside -4...22\n")
  }
}
