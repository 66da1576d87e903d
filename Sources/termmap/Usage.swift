import ArgumentParser
import Foundation
import MapGeometry
import TerminalUI

/// A mistake in the command line (exit status 2).
struct UsageError: Error, CustomStringConvertible {
  let message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}

enum Usage {
  static let version = "0.1.0"

  /// ArgumentParser's message for a command line it refused, as one line in termmap's words
  /// ("unknown option --frobnicate", "--zoom needs a value"). `arguments` tells which
  /// subcommand was meant, for the messages that name it.
  static func oneLine(_ message: String, arguments: [String]) -> String {
    let subcommand =
      arguments.first.flatMap { Termmap.subcommandNames.contains($0) ? $0 : nil }
      ?? "view"
    let prefix = subcommand == "info" || subcommand == "bench" ? "\(subcommand): " : ""
    let unknown = subcommand == "bench" ? "unknown argument" : "unknown option"
    let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let first = lines.first ?? ""
    // "Unknown option '--x'" (". Did you mean '--y'?")
    if let name = quoted(first, after: "Unknown option '") {
      let suggestion = quoted(first, after: "Did you mean '").map { " (did you mean \($0)?)" }
      return "\(prefix)\(unknown) \(name)\(suggestion ?? "")"
    }
    // "Missing value for '--zoom <Z>'"
    if let name = quoted(first, after: "Missing value for '") {
      return "\(name.split(separator: " ").first.map(String.init) ?? name) needs a value"
    }
    // "Missing expected argument '<FILE> ...'"
    if let name = quoted(first, after: "Missing expected argument '") {
      let value = name.split(separator: " ").first.map { $0.trimmingCharacters(in: ["<", ">"]) }
      return "\(subcommand) needs at least one \(value ?? name)"
    }
    // "Unexpected argument 'x'", "2 unexpected arguments: 'x', 'y'"
    if first.hasPrefix("Unexpected argument '") || first.contains("unexpected arguments:") {
      let values = first.split(separator: "'").enumerated().filter { $0.offset % 2 == 1 }
        .map { String($0.element) }
      return "\(prefix)\(unknown) \(values.joined(separator: " "))"
    }
    let text = lines.filter { !$0.isEmpty }.joined(separator: " ")
    guard let c = text.first else { return "bad command line" }
    return c.lowercased() + text.dropFirst()
  }

  /// The text between `marker` and the next `'`.
  private static func quoted(_ s: String, after marker: String) -> String? {
    guard let r = s.range(of: marker) else { return nil }
    let rest = s[r.upperBound...]
    guard let end = rest.firstIndex(of: "'") else { return nil }
    return String(rest[..<end])
  }
}

extension Termmap {
  static let subcommandNames: Set<String> = Set(
    configuration.subcommands.map { $0.configuration.commandName ?? "" })
}

/// Strict conversions of option values, each with its one-line message.
enum ArgumentValues {
  static func number(_ s: String, _ what: String) throws -> Double {
    guard let d = Double(s.trimmingCharacters(in: .whitespaces)), d.isFinite else {
      throw UsageError("\(what): expected a number, found \"\(s)\"")
    }
    return d
  }

  static func numbers(_ s: String, count: Int, _ what: String) throws -> [Double] {
    let parts = s.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == count else {
      throw UsageError("\(what): expected \(count) comma-separated numbers, found \"\(s)\"")
    }
    return try parts.map { try number($0, what) }
  }

  static let maxColumns = 2000
  static let maxRows = 1000

  static func size(_ s: String) throws -> (Int, Int) {
    let parts = s.lowercased().split(separator: "x").map(String.init)
    guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), c >= 1, r >= 1 else {
      throw UsageError("--size: expected COLSxROWS such as 80x24, found \"\(s)\"")
    }
    guard c <= maxColumns, r <= maxRows else {
      throw UsageError("--size: \(s) is too large (at most \(maxColumns)x\(maxRows))")
    }
    return (c, r)
  }

  static func center(_ s: String) throws -> Coordinate {
    let v = try numbers(s, count: 2, "--center")
    let c = Coordinate(latitude: v[0], longitude: v[1])
    guard c.isValid else {
      throw UsageError(
        "--center: \(v[0]),\(v[1]) is not a coordinate (latitude within ±90, longitude within ±180)"
      )
    }
    return c
  }

  static func zoom(_ s: String) throws -> Double {
    let z = try number(s, "--zoom")
    let range = Viewer.zoomRange
    guard range.contains(z) else {
      throw UsageError(
        "--zoom: \(z) is outside \(Int(range.lowerBound))...\(Int(range.upperBound))")
    }
    return z
  }

  /// W,S,E,N: every edge in range (not only the outer ones: W = 1e308 used to pass), S below
  /// N; W > E crosses the antimeridian.
  static func bbox(_ s: String) throws -> [Double] {
    let v = try numbers(s, count: 4, "--bbox")
    let longitudes = -180.0...180.0
    let latitudes = -90.0...90.0
    guard longitudes.contains(v[0]), longitudes.contains(v[2]), latitudes.contains(v[1]),
      latitudes.contains(v[3]), v[1] < v[3]
    else {
      throw UsageError(
        "--bbox: expected W,S,E,N with S < N inside ±90/±180, found \(v.map { String($0) }.joined(separator: ","))"
      )
    }
    return v
  }

  /// One of an enumeration's raw values: "--color: expected auto, always or never, found …".
  static func choice<T: RawRepresentable>(_ s: String, _ option: String, _ values: [String])
    throws -> T where T.RawValue == String
  {
    guard let v = T(rawValue: s) else {
      let list = values.dropLast().joined(separator: ", ") + " or " + (values.last ?? "")
      throw UsageError("\(option): expected \(list), found \"\(s)\"")
    }
    return v
  }
}

extension PositionOptions {
  func coordinate() throws -> Coordinate? { try center.map(ArgumentValues.center) }
  func zoomLevel() throws -> Double? { try zoom.map(ArgumentValues.zoom) }
}
