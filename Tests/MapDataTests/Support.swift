import Foundation
import Testing

@testable import MapData

/// Locations of test files, found from this source file so no bundle resources are needed.
enum Fixture {
  static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let directory = testsDirectory.appendingPathComponent("Fixtures")
  static let samples = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Data/samples")

  static func path(_ name: String) -> String {
    directory.appendingPathComponent(name).path
  }

  static func sample(_ name: String) -> String {
    samples.appendingPathComponent(name).path
  }
}

/// Parses CSV text given inline.
func parseCSV(_ text: String, path: String = "inline.csv") throws(DataFileError) -> RouteFile {
  try RouteCSV.parse(Data(text.utf8), path: path)
}

/// The description of the error `body` throws, or nil when it succeeds.
func failure(_ body: () throws(DataFileError) -> RouteFile) -> String? {
  do {
    _ = try body()
    return nil
  } catch {
    return error.description
  }
}

/// 2024-05-01T10:00:00Z.
let mayDayTen = Date(timeIntervalSince1970: 1_714_557_600)
