import Foundation
import TestProcesses
import Testing

/// Runs the built termmap with `input` on its standard input.
func termmap(_ arguments: [String], input: String) throws -> (
  status: Int32, stdout: String, stderr: String
) {
  let p = Process()
  p.executableURL = termmapBinary
  p.arguments = arguments
  p.currentDirectoryURL = repositoryRoot
  let out = Pipe()
  let err = Pipe()
  let inp = Pipe()
  p.standardOutput = out
  p.standardError = err
  p.standardInput = inp
  try p.run()
  let writer = Thread {
    inp.fileHandleForWriting.write(Data(input.utf8))
    try? inp.fileHandleForWriting.close()
  }
  writer.start()
  let errData = LockedData()
  let errThread = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
  errThread.start()
  let o = out.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  while !errData.isSet { usleep(1000) }
  return (
    p.terminationStatus, String(decoding: o, as: UTF8.self),
    String(decoding: errData.get(), as: UTF8.self)
  )
}

private func feature(_ id: String, _ lon: Double, _ lat: Double, _ title: String) -> String {
  "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]},\"properties\":{\"title\":\"\(title)\"}}"
}

/// The row and column of the first line holding `text` in a frame (nil when absent).
private func position(of text: String, in frame: String) -> (row: Int, column: Int)? {
  for (r, line) in frame.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    if let range = line.range(of: text) {
      return (r, line.distance(from: line.startIndex, to: range.lowerBound))
    }
  }
  return nil
}

@Suite("termmap render --layer: targets from standard input, files and streams")
struct LiveLayerCLITests {
  let base = [
    "render", "--no-basemap", "--size", "40x11", "--color", "never", "--center", "43.7,7.4",
    "--zoom", "8",
  ]

  @Test("Two features with one id from stdin draw one marker, at the second place, with its title")
  func oneMarkerAtB() throws {
    let a = feature("1", 7.3, 43.65, "Alpha")
    let b = feature("1", 7.5, 43.75, "Bravo")
    let r = try termmap(base + ["--layer", "-"], input: a + "\n" + b + "\n")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty, "\(r.stderr)")
    #expect(!r.stdout.contains("Alpha"))
    let at = try #require(position(of: "● Bravo", in: r.stdout), "\(r.stdout)")
    // Alone at B: north-east of the centre (row 5, column 20).
    #expect(at.row < 5)
    #expect(at.column > 20)
    #expect(r.stdout.filter { $0 == "●" }.count == 1)
    // The same at B alone: the first message left nothing behind.
    let alone = try termmap(base + ["--layer", "-"], input: b + "\n")
    #expect(alone.stdout == r.stdout)
  }

  @Test("\"geometry\": null removes the target")
  func nullRemoves() throws {
    let a = feature("1", 7.3, 43.65, "Alpha")
    let gone = "{\"type\":\"Feature\",\"id\":\"1\",\"geometry\":null,\"properties\":{}}"
    let r = try termmap(base + ["--layer", "-"], input: a + "\n" + gone + "\n")
    #expect(r.status == 0)
    #expect(!r.stdout.contains("Alpha"))
    #expect(!r.stdout.contains("●"))
  }

  @Test("CSV: the same, and an empty lat and lon remove the row's id")
  func csv() throws {
    let text = "id,name,lat,lon\n1,Alpha,43.65,7.3\n2,Gone,43.6,7.2\n1,Bravo,43.75,7.5\n2,,,\n"
    let r = try termmap(base + ["--layer", "-"], input: text)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.filter { $0 == "●" }.count == 1)
    let at = try #require(position(of: "● Bravo", in: r.stdout), "\(r.stdout)")
    #expect(at.row < 5 && at.column > 20)
  }

  @Test(
    "aircraft.json from a file: an arrow by track, the callsign as label; bad lines said on stderr")
  func aircraftFile() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-layer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("aircraft.json")
    try """
    { "now" : 1700000000.0, "messages" : 10,
      "aircraft" : [
        {"hex":"4ca7b5","flight":"RYR8TK  ","alt_baro":37000,"gs":451.2,"track":92.5,"lat":43.75,"lon":7.5,"seen_pos":0.5,"seen":0.2},
        {"hex":"3c6444","alt_baro":1200,"seen":3.0}
      ]
    }
    """.write(to: file, atomically: true, encoding: .utf8)
    let r = try termmap(base + ["--layer", file.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("→ RYR8TK"), "\(r.stdout)")
    let bad = dir.appendingPathComponent("bad.ndjson")
    try (feature("1", 7.5, 43.75, "Bravo") + "\nnot json\n").write(
      to: bad, atomically: true, encoding: .utf8)
    let b = try termmap(base + ["--layer", bad.path])
    #expect(b.status == 0)
    #expect(b.stdout.contains("● Bravo"))
    #expect(
      b.stderr
        == "termmap: --layer: 1 bad message skipped (last: \(bad.path): message 2: not a JSON object)\n"
    )
  }

  @Test("A FIFO is a stream: render reads it for --wait seconds, then prints the frame")
  func fifoWait() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-fifo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("targets").path
    #expect(mkfifo(fifo, 0o600) == 0)
    // The writer sends one feature and keeps the FIFO open (a stream has no end) until the
    // test has its answer.
    let line = feature("1", 7.5, 43.75, "Bravo") + "\n"
    let done = DispatchSemaphore(value: 0)
    let writer = Thread {
      let fd = open(fifo, O_WRONLY)
      guard fd >= 0 else { return }
      _ = Array(line.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      done.wait()
      close(fd)
    }
    writer.start()
    let start = Date()
    let r = try termmap(base + ["--layer", fifo, "--wait", "1"])
    done.signal()
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("● Bravo"), "\(r.stdout)")
    // It waited --wait seconds, and printed with the stream still open.
    #expect(Date().timeIntervalSince(start) >= 1)
  }

  @Test("Bad --layer values: one line each, status 2")
  func usage() throws {
    let cases: [([String], String)] = [
      (
        ["--layer", "ftp://x/y"],
        "termmap: --layer: ftp://x/y: unsupported scheme \"ftp\" (expected -, a file, tcp://, http(s):// or gpsd://)\n"
      ),
      (["--layer", "tcp://host"], "termmap: --layer: tcp://host: expected tcp://HOST:PORT\n"),
      (
        ["--layer", "/no/such/file"], "termmap: --layer: /no/such/file: no such file or directory\n"
      ),
      (
        ["--trail", "5"], "termmap: --every, --ttl, --max-targets and --trail need --layer SOURCE\n"
      ),
      (
        ["--layer", "-", "--max-targets", "0"],
        "termmap: --max-targets: expected a whole number 1...10000000, found \"0\"\n"
      ),
    ]
    for (args, message) in cases {
      let r = try termmap(base + args)
      #expect(r.status == 2, "\(args)")
      #expect(r.stderr == message, "\(args)")
    }
  }
}
