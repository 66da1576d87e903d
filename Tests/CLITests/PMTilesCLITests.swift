import Foundation
import Testing

@Suite("termmap render --tiles with PMTiles and other sources")
struct PMTilesCLITests {
  func render(_ tiles: String) throws -> (status: Int32, stdout: String, stderr: String) {
    try termmap([
      "render", "--no-basemap", "--color", "never", "--size", "80x24", "--zoom", "3",
      "--center", "44,8", "--tiles", tiles,
    ])
  }

  @Test("Data/world.pmtiles draws exactly what Data/world.mbtiles draws")
  func sameAsMBTiles() throws {
    let pm = try render("Data/world.pmtiles")
    let mb = try render("Data/world.mbtiles")
    #expect(pm.status == 0 && mb.status == 0)
    #expect(pm.stderr.isEmpty)
    let dots = pm.stdout.unicodeScalars.filter { $0.value > 0x2800 && $0.value <= 0x28FF }.count
    #expect(dots > 100)
    #expect(pm.stdout == mb.stdout)
  }

  @Test("an unsupported URL scheme or a missing file is one usage error line")
  func errors() throws {
    let ftp = try render("ftp://example.com/world.pmtiles")
    #expect(ftp.status == 2)
    #expect(
      ftp.stderr.contains(
        "--tiles: ftp://example.com/world.pmtiles: unsupported URL scheme \"ftp\""))
    let missing = try render("Data/nope.pmtiles")
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("--tiles: Data/nope.pmtiles: no such file or directory"))
  }
}
