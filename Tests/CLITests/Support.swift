import Foundation

/// The repository's root folder (the tests run termmap there).
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The built `termmap` binary: next to the test bundle, or in the build folder above it.
let termmapBinary: URL = {
  var candidates: [URL] = []
  let bundleDir = Bundle.main.bundleURL
  candidates.append(bundleDir.appendingPathComponent("termmap"))
  candidates.append(bundleDir.deletingLastPathComponent().appendingPathComponent("termmap"))
  let runner = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  candidates.append(runner.appendingPathComponent("termmap"))
  candidates.append(runner.deletingLastPathComponent().appendingPathComponent("termmap"))
  return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    ?? candidates[0]
}()

/// Runs the built termmap with `arguments` and captures its status and output. Both pipes are
/// read at once, so a full pipe cannot stall the child.
func termmap(
  _ arguments: [String], environment: [String: String] = [:], in directory: URL = repositoryRoot
) throws -> (status: Int32, stdout: String, stderr: String) {
  let p = Process()
  p.executableURL = termmapBinary
  p.arguments = arguments
  p.currentDirectoryURL = directory
  var env = ProcessInfo.processInfo.environment
  // What picks the theme and the labels' language comes from the test alone, not from where
  // the tests run (the runner may set NO_COLOR; a machine's locale names a language).
  for k in ["NO_COLOR", "COLORFGBG", "LC_ALL", "LC_MESSAGES", "LANG"] { env[k] = nil }
  env["LANG"] = "C.UTF-8"
  for (k, v) in environment { env[k] = v }
  p.environment = env
  let out = Pipe()
  let err = Pipe()
  p.standardOutput = out
  p.standardError = err
  p.standardInput = FileHandle.nullDevice
  try p.run()
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

/// Data handed from a reading thread.
final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data: Data?
  func set(_ d: Data) { lock.withLock { data = d } }
  var isSet: Bool { lock.withLock { data != nil } }
  func get() -> Data { lock.withLock { data ?? Data() } }
}

/// Braille cells with at least one dot in `text`.
func inkedCells(_ text: some StringProtocol) -> Int {
  text.unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }.count
}
