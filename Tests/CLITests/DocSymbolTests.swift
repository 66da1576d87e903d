import Foundation
import Testing

/// The docs name code that exists: every `TypeName` or `TypeName.member` in backticks in
/// README.md, docs/ and the DocC articles is declared in the package (a type, a module, a
/// source file's name; a member as a func, var, let or case), or is one of the names from
/// elsewhere listed here (Swift's and MapKit's, format fields, keys).
@Suite("docs name only code that exists")
struct DocSymbolTests {
  /// Names from outside the package that docs may use.
  static let external: Set<String> = [
    // Swift, Foundation, Dispatch, libFuzzer.
    "CancellationError", "DispatchQueue", "Double", "Int32", "UInt64", "String", "Mutex",
    "Sendable", "RandomAccessCollection", "Range", "NaN", "LLVMFuzzerRunDriver",
    "JSONSerialization", "JSONDecoder", "Codable",
    // Keys.
    "Backspace", "Enter", "Esc", "Space",
    // Fields and elements of the formats (KML, IGC, FIT, MVT, Natural Earth).
    "IconStyle", "LineStyle", "PolyStyle", "StyleMap", "MultiGeometry", "Sport", "Feature",
    "Layer", "Tile", "DDDMMmmm", "DDMMmmm",
    // GeoJSON geometry types (live layers).
    "MultiPoint", "LineString", "MultiLineString",
  ]

  static func files(under dir: String, ext: String) -> [URL] {
    let root = repositoryRoot.appendingPathComponent(dir)
    guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    else { return [] }
    return walk.compactMap { $0 as? URL }.filter {
      $0.pathExtension == ext && !$0.path.contains("/.build")
    }
  }

  static func matches(_ pattern: String, in text: String) -> [[String?]] {
    let regex = try! NSRegularExpression(pattern: pattern)
    let ns = text as NSString
    return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { m in
      (0..<m.numberOfRanges).map { i in
        m.range(at: i).location == NSNotFound ? nil : ns.substring(with: m.range(at: i))
      }
    }
  }

  @Test("every type and member a doc names in backticks is in the code")
  func docsNameExistingSymbols() throws {
    var types = Set<String>()
    var members = Set<String>()
    for dir in ["Sources", "Tests", "Fuzz/Sources", "Examples/Sources"] {
      for file in Self.files(under: dir, ext: "swift") {
        types.insert(file.deletingPathExtension().lastPathComponent)
        types.insert(file.deletingLastPathComponent().lastPathComponent)
        let text = try String(contentsOf: file, encoding: .utf8)
        for m in Self.matches(
          #"\b(?:class|struct|enum|protocol|typealias|actor|extension)\s+([A-Z][A-Za-z0-9_]*)"#,
          in: text)
        {
          types.insert(m[1]!)
        }
        for m in Self.matches(#"\b(?:func|var|let|case)\s+`?([A-Za-z_][A-Za-z0-9_]*)"#, in: text) {
          members.insert(m[1]!)
        }
      }
    }
    for dir in ["Sources", "Fuzz/Sources"] {
      let root = repositoryRoot.appendingPathComponent(dir)
      for name in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] {
        types.insert(name)
      }
    }
    types.formUnion(["TermMap", "TermMapCore", "LiveLocation"])  // products
    let docs =
      [repositoryRoot.appendingPathComponent("README.md")]
      + Self.files(under: "docs", ext: "md") + Self.files(under: "Sources", ext: "md")
    var problems: [String] = []
    for doc in docs {
      let text = try String(contentsOf: doc, encoding: .utf8)
      let name = doc.path.replacingOccurrences(of: repositoryRoot.path + "/", with: "")
      for span in Self.matches("`([^`\\n]+)`", in: text).compactMap({ $0[1] }) {
        guard
          let m = Self.matches(
            #"^([A-Z][A-Za-z0-9]+)(?:\.([a-z][A-Za-z0-9]*))?(?:\(.*\))?$"#, in: span
          ).first,
          let type = m[1]
        else { continue }
        let member = m[2]
        if member == "swift" || member == "md" { continue }  // a file name
        // MapKit's, Core Location's and Core Graphics' names (the model's reference), and
        // all-capital format tokens (GET, HFDTE).
        if type.hasPrefix("MK") || type.hasPrefix("CL") || type.hasPrefix("CG")
          || type.allSatisfy({ $0.isUppercase || $0.isNumber })
        {
          continue
        }
        if types.contains(type) {
          if let member, !members.contains(member) {
            problems.append("\(name): `\(span)`: \(type) has no \(member)")
          }
        } else if !Self.external.contains(type) {
          problems.append("\(name): `\(span)`: no such type, module or file")
        }
      }
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }
}
