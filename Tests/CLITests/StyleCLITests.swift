import Foundation
import Testing

/// `termmap style validate|eval|test` as a style author uses them: output, messages, statuses.
@Suite("termmap style: validate, eval, test")
struct StyleCLITests {
  func write(_ text: String, name: String) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-style-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  @Test("eval prints the result as JSON; --zoom, --feature and --type feed it")
  func evalResults() throws {
    var r = try termmap([
      "style", "eval", #"["interpolate", ["linear"], ["zoom"], 10, 1, 20, 11]"#, "--zoom", "15",
    ])
    #expect(r.status == 0 && r.stderr.isEmpty)
    #expect(r.stdout == "6\n")
    r = try termmap([
      "style", "eval", #"["concat", ["get", "name"], " (", ["id"], ")"]"#, "--feature",
      #"{"type": "Feature", "id": 7, "properties": {"name": "Kamppi"}}"#,
    ])
    #expect(r.stdout == "\"Kamppi (7)\"\n")
    r = try termmap(["style", "eval", #"["match", "b", "a", "red", "lime"]"#, "--type", "color"])
    #expect(r.stdout == "\"rgba(0,255,0,1)\"\n")
    r = try termmap([
      "style", "eval", #"{"stops": [[0, 1], [10, 6]]}"#, "--type", "number", "--zoom", "5",
    ])
    #expect(r.stdout == "3.5\n")
    // Control characters and bidirectional overrides from a feature stay escaped in the JSON.
    r = try termmap([
      "style", "eval", #"["get", "x"]"#, "--feature",
      #"{"type": "Feature", "properties": {"x": "a\u001b[31mb\u202e"}}"#,
    ])
    #expect(r.stdout == #""a\u001b[31mb\u202e""# + "\n")
  }

  @Test("eval: a parse, type or evaluation error is one line on stderr, status 2")
  func evalErrors() throws {
    let cases: [([String], String)] = [
      ([#"["+", 1, "a"]"#], "termmap: [2]: Expected number but found string instead.\n"),
      (
        [#"["number", ["get", "x"]]"#, "--feature", #"{"type":"Feature","properties":{"x":"1"}}"#],
        "termmap: Expected value to be of type number, but found string instead.\n"
      ),
      (["[1,"], "termmap: expression: Unexpected end of JSON text at byte 3\n"),
      (
        [#"["get", "\u001b[31mred"]"#, "--feature", "[]"],
        "termmap: --feature: expected a GeoJSON Feature object\n"
      ),
      (
        [#"["frob\u001b]0;x\u0007"]"#],
        "termmap: [0]: Unknown expression \"frob]0;x\". If you wanted a literal array, use [\"literal\", [...]].\n"
      ),
    ]
    for (arguments, message) in cases {
      let r = try termmap(["style", "eval"] + arguments)
      #expect(r.status == 2, "\(arguments)")
      #expect(r.stdout.isEmpty)
      #expect(r.stderr == message, "\(arguments)")
    }
  }

  @Test("validate: a valid style is one line and status 0; errors with JSON paths and status 2")
  func validate() throws {
    let good = try write(
      """
      {"version": 8, "sources": {"t": {"type": "vector", "tiles": ["https://example.com/{z}/{x}/{y}.pbf"]}},
       "layers": [{"id": "water", "type": "fill", "source": "t", "source-layer": "water",
                   "filter": ["==", "$type", "Polygon"],
                   "paint": {"fill-color": {"stops": [[5, "#00f"], [10, "#08f"]]}}}]}
      """, name: "good.json")
    var r = try termmap(["style", "validate", good.path])
    #expect(r.status == 0 && r.stderr.isEmpty)
    #expect(
      r.stdout == "\(good.path): valid: 1 layers, 1 sources, 2 expressions compiled, 0 warnings\n")
    let bad = try write(
      """
      {"version": 7, "sources": {},
       "layers": [{"id": "a", "type": "line", "source": "t", "source-layer": "x",
                   "paint": {"line-width": ["get"]}}]}
      """, name: "bad.json")
    r = try termmap(["style", "validate", bad.path])
    #expect(r.status == 2 && r.stdout.isEmpty)
    #expect(
      r.stderr == """
        termmap: version: expected one of [8], 7 found
        termmap: layers[0]: source "t" not found
        termmap: layers[0].paint.line-width: Expected arguments of type (string) | (string, object), but found () instead.

        """)
    r = try termmap(["style", "validate", "/nonexistent/style.json"])
    #expect(r.status == 2 && r.stderr == "termmap: /nonexistent/style.json: no such file\n")
  }

  @Test("test: failures with reasons and the pass rate; status 1 when one fails, 0 when all pass")
  func testCommand() throws {
    let file = try write(
      """
      {"cases": [
        {"test": "sum", "expression": ["+", 1, 2], "expect": {"value": 3, "type": "number"}},
        {"test": "wrong", "expression": ["upcase", "a"], "expect": {"value": "a", "type": "string"}},
        {"test": "error", "expression": ["-"], "expect": {"error": "Expected arguments of type (number, number) | (number), but found () instead."}}
      ]}
      """, name: "cases.json")
    var r = try termmap(["style", "test", file.path])
    #expect(r.status == 1)
    #expect(
      r.stdout == "FAIL wrong: expected \"a\" (string), got \"A\"\n2 of 3 cases passed (66.7 %)\n")
    let operators = repositoryRoot.appendingPathComponent(
      "Tests/MapStyleTests/Fixtures/operators.json")
    r = try termmap(["style", "test", operators.path])
    #expect(r.status == 0, "\(r.stdout)")
    #expect(r.stdout.hasSuffix("cases passed (100.0 %)\n"))
  }
}
