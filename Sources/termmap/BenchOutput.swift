import DotRaster
import Foundation
import MapGeometry
import TermMapKit
import TerminalUI

/// The terminal output: a frame turned into bytes by `TerminalWriter` (what the viewer sends
/// on an ANSI terminal), for a full repaint and for one-step pans (an eighth of the screen, as
/// the arrow keys pan), at 160x48 and 300x100.
extension BenchCommand {
  func outputFrames(
    _ prefix: String, _ layers: () throws -> [any Overlay], at centre: Coordinate, zoom: Double,
    frames: Int
  ) throws -> [Result] {
    var out: [Result] = []
    for (w, h) in [(160, 48), (300, 100)] {
      let map = MapView(columns: w, rows: h)
      map.zoomRange = Viewer.zoomRange
      map.addOverlays(try layers(), level: .aboveRoads)
      map.setCenter(centre, animated: false)
      map.setZoomLevel(zoom, animated: false)
      var start = map.renderCompleteFrame(timeout: 15).frame
      let dx = max((map.widthInDots * 0.125).rounded(), Double(CellGeometry.dotsWide))
      let dy = max((map.heightInDots * 0.125).rounded(), Double(CellGeometry.dotsHigh))
      map.pan(byDotsX: dx, y: 0)
      var east = map.renderCompleteFrame(timeout: 15).frame
      map.pan(byDotsX: -dx, y: dy)
      var south = map.renderCompleteFrame(timeout: 15).frame
      // As the viewer's screen does before writing.
      start.repairWideGlyphs()
      east.repairWideGlyphs()
      south.repairWideGlyphs()
      let features = TerminalWriter.Features(colors: .palette256)
      let plain = TerminalWriter.Features(
        colors: .palette256, shiftsRows: false, scrollsRegions: false)
      let full = TerminalWriter.bytes(from: nil, to: start, features: features).count
      out.append(
        timeWriter(
          "\(prefix)-\(w)x\(h)-full", frames: frames, from: nil, to: start, features: features,
          note: "\(full) B"))
      for (name, next) in [("hpan", east), ("vpan", south)] {
        let bytes = TerminalWriter.bytes(from: start, to: next, features: features).count
        let without = TerminalWriter.bytes(from: start, to: next, features: plain).count
        out.append(
          timeWriter(
            "\(prefix)-\(w)x\(h)-\(name)", frames: frames, from: start, to: next,
            features: features,
            note: String(
              format: "%d B, %.0f%% of full; %d B without shifts or scrolls", bytes,
              100 * Double(bytes) / Double(max(full, 1)), without)))
      }
      out.append(panFrames("\(prefix)-\(w)x\(h)-pan-frame", map, dx: dx, frames: frames))
    }
    return out
  }

  /// A whole pan as the viewer's screen makes it: the map panned an eighth of the screen east
  /// or west (tiles cached), the frame drawn, mended and written as bytes.
  func panFrames(_ name: String, _ map: MapView, dx: Double, frames: Int) -> Result {
    var writer = TerminalWriter(features: TerminalWriter.Features(colors: .palette256))
    var first = map.renderCompleteFrame(timeout: 15).frame
    first.repairWideGlyphs()
    writer.update(to: first)
    // Both neighbours drawn once, so every measured frame reuses drawn tiles.
    for step in [dx, -dx, -dx, dx] {
      map.pan(byDotsX: step, y: 0)
      var f = map.renderCompleteFrame(timeout: 15).frame
      f.repairWideGlyphs()
      writer.update(to: f)
    }
    var times: [Double] = []
    var sizes: [Int] = []
    let clock = ContinuousClock()
    for i in 0..<max(frames, 1) {
      map.pan(byDotsX: i % 2 == 0 ? dx : -dx, y: 0)
      let t0 = clock.now
      var frame = map.renderFrame()
      frame.repairWideGlyphs()
      let n = writer.update(to: frame).count
      times.append(Self.milliseconds(clock.now - t0))
      sizes.append(n)
    }
    times.sort()
    sizes.sort()
    return Result(
      name: name, frames: times.count, median: times[times.count / 2],
      p95: times[min(times.count - 1, Int(Double(times.count) * 0.95))],
      peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576,
      note: "frame drawn from cached tiles and written: \(sizes[sizes.count / 2]) B median")
  }

  /// Times `TerminalWriter.update` from `old` (nil: a full repaint) to `new`, `frames` times.
  func timeWriter(
    _ name: String, frames: Int, from old: CellBuffer?, to new: CellBuffer,
    features: TerminalWriter.Features, note: String
  ) -> Result {
    var writer = TerminalWriter(features: features)
    var times: [Double] = []
    let clock = ContinuousClock()
    var total = 0
    for _ in 0..<max(frames, 1) {
      writer.reset()
      if let old { writer.update(to: old) }
      let t0 = clock.now
      total &+= writer.update(to: new).count
      times.append(Self.milliseconds(clock.now - t0))
    }
    precondition(total > 0)
    times.sort()
    return Result(
      name: name, frames: times.count, median: times[times.count / 2],
      p95: times[min(times.count - 1, Int(Double(times.count) * 0.95))],
      peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576, note: note)
  }
}
