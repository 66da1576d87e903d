import Foundation
import MapGeometry

/// Finds termmap's offline data: the map (`world.pmtiles`, `monaco.mbtiles`) and the place
/// names (`places.tsv.gz`, `countries.tsv`), in the repository's `Data/` folder or where an
/// install put them.
public enum DataDirectory {
  /// The `Data/` folder of the termmap package this library was built from (its checkout, for
  /// a package that depends on termmap; the clone, for termmap itself).
  public static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Data")

  /// The folders looked in, in order:
  /// 1. `$TERMMAP_DATA`, when set: then only there (a setting is not second-guessed);
  /// 2. the `Data/` folder of the termmap package the library was built from (`package`), so a
  ///    program that depends on termmap through SwiftPM finds it with no setting;
  /// 3. a `Data/` folder beside or above the executable (a build moved with its data), and
  ///    `share/termmap` beside its `bin/` (an install under a prefix);
  /// 4. `$XDG_DATA_HOME/termmap` (default `~/.local/share/termmap`), then `termmap` in each of
  ///    `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`);
  /// 5. `./Data`.
  public static func candidates(
    executable: String = CommandLine.arguments.first ?? "",
    environment: [String: String] = ProcessInfo.processInfo.environment,
    currentDirectory: String = FileManager.default.currentDirectoryPath,
    packageDirectory: URL? = package
  ) -> [URL] {
    if let env = environment["TERMMAP_DATA"], !env.isEmpty {
      return [URL(fileURLWithPath: env)]
    }
    var candidates: [URL] = []
    if let packageDirectory { candidates.append(packageDirectory) }
    let bin = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
    var dir = bin
    for _ in 0..<6 {
      candidates.append(dir.appendingPathComponent("Data"))
      dir = dir.deletingLastPathComponent()
    }
    candidates.append(bin.deletingLastPathComponent().appendingPathComponent("share/termmap"))
    candidates.append(
      XDGDirectories.dataHome(environment: environment).appendingPathComponent("termmap"))
    let dirs =
      environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "/usr/local/share:/usr/share"
    for d in dirs.split(separator: ":") where d.hasPrefix("/") {
      candidates.append(URL(fileURLWithPath: String(d)).appendingPathComponent("termmap"))
    }
    candidates.append(URL(fileURLWithPath: currentDirectory).appendingPathComponent("Data"))
    return candidates
  }

  /// The first of `candidates` that holds `world.pmtiles`, nil when none does.
  public static func locate(
    executable: String = CommandLine.arguments.first ?? "",
    environment: [String: String] = ProcessInfo.processInfo.environment,
    currentDirectory: String = FileManager.default.currentDirectoryPath,
    packageDirectory: URL? = package
  ) -> URL? {
    candidates(
      executable: executable, environment: environment, currentDirectory: currentDirectory,
      packageDirectory: packageDirectory
    ).first {
      FileManager.default.fileExists(atPath: $0.appendingPathComponent("world.pmtiles").path)
    }
  }

  /// One line for a missing offline map: where it was looked for, and what to do.
  public static func missingMessage(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    if let env = environment["TERMMAP_DATA"], !env.isEmpty {
      return "the offline map is missing: no world.pmtiles in TERMMAP_DATA=\(env)"
    }
    return
      "the offline map is missing: no world.pmtiles in Data/ beside termmap, "
      + "~/.local/share/termmap or /usr/share/termmap (see README: Install, or set TERMMAP_DATA)"
  }
}
