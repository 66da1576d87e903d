import Foundation
import Testing

@Suite("termmap --tiles NAME: presets and the config file")
struct TileSourceCLITests {
  @Test("an unknown name is one line naming the sources, exit 2")
  func unknownName() throws {
    let r = try termmap(["render", "--size", "40x10", "--tiles", "nope"])
    #expect(r.status == 2)
    #expect(
      r.stderr
        == "termmap: --tiles: nope: no such file or source name (sources: osm, osm-vector, openfreemap)\n"
    )
    #expect(r.stdout.isEmpty)
  }

  @Test("a source from the config file is drawn, with its attribution on the status line")
  func configSource() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-config-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    try FileManager.default.createDirectory(
      at: home.appendingPathComponent("termmap"), withIntermediateDirectories: true)
    let world = repositoryRoot.appendingPathComponent("Data/world.mbtiles").path
    try """
    [sources.mine]
    path = "\(world)"
    attribution = "my own world"
    """.write(
      to: home.appendingPathComponent("termmap/config.toml"), atomically: true, encoding: .utf8)
    let r = try termmap(
      [
        "render", "--no-basemap", "--color", "never", "--size", "60x12", "--status", "--tiles",
        "mine",
      ],
      environment: ["XDG_CONFIG_HOME": home.path])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    #expect(r.stdout.contains("South Africa"))
    #expect(r.stdout.split(separator: "\n").last?.contains("my own world") == true)

    try "[sources.mine]\nurl = \"x\n".write(
      to: home.appendingPathComponent("termmap/config.toml"), atomically: true, encoding: .utf8)
    let bad = try termmap(
      ["render", "--size", "40x10", "--tiles", "mine"], environment: ["XDG_CONFIG_HOME": home.path])
    #expect(bad.status == 2)
    #expect(bad.stderr.hasPrefix("termmap: config: \(home.path)/termmap/config.toml:2: "))
    #expect(bad.stderr.filter { $0 == "\n" }.count == 1)
  }
}
