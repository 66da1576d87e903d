import Foundation
import Testing

@testable import MapData

/// Cut and damaged copies of the samples must load or fail with one located line, never crash.
@Suite struct RobustnessTests {
  static let files = [
    "korita-zbevnica.gpx", "cerknicko-jezero.gpx", "route.gpx", "bled.geojson", "bohinj.kml",
    "lisbon-walk.csv",
  ]

  @Test(arguments: files)
  func truncatedCopies(file: String) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixture.sample(file))))
    var cut = 1
    var failures = 0
    while cut < bytes.count {
      do {
        _ = try MapContentLoader.load(data: Data(bytes[..<cut]), path: file)
      } catch {
        failures += 1
        #expect(!error.description.contains("\n"))
        #expect(error.description.hasPrefix(file + ":"))
      }
      cut += max(1, bytes.count / 250) + (cut % 7)
    }
    #expect(failures > 0)
  }

  @Test(arguments: files)
  func damagedCopies(file: String) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixture.sample(file))))
    var state: UInt64 = 12345
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33)
    }
    let replacements: [UInt8] = Array("<>&\"'/=[]{},:;-.0 \n\u{1}".utf8) + [0xC3, 0xFF, 0x80]
    for _ in 0..<200 {
      var copy = bytes
      for _ in 0..<(1 + next() % 3) {
        copy[next() % copy.count] = replacements[next() % replacements.count]
      }
      do {
        let content = try MapContentLoader.load(data: Data(copy), path: file)
        for w in content.warnings { #expect(!w.contains("\n")) }
      } catch {
        #expect(!error.description.contains("\n"))
      }
    }
  }
}
