import Foundation

extension DrawingContext {
  /// Fills the current path under the even-odd rule: a dot is inked when its centre lies inside
  /// an odd number of rings, so inner rings cut holes.
  func fillEvenOdd(ink: Ink) {
    guard !xs.isEmpty else { return }
    // The buffers of the last fill, reused (a map tile fills many small polygons).
    var scratch = FillScratch()
    swap(&scratch, &fillScratch)
    defer {
      scratch.edges.removeAll(keepingCapacity: true)
      scratch.active.removeAll(keepingCapacity: true)
      scratch.crossings.removeAll(keepingCapacity: true)
      swap(&scratch, &fillScratch)
    }
    fill(ink: ink, xs: xs, ys: ys, subpaths: subpaths, &scratch)
  }

  private func fill(
    ink: Ink, xs: [Double], ys: [Double], subpaths: [DotPathBuilder.Subpath],
    _ scratch: inout FillScratch
  ) {
    typealias Edge = FillScratch.Edge
    var edges = scratch.edges
    scratch.edges = []
    defer { scratch.edges = edges }
    edges.reserveCapacity(xs.count)
    var minX = Double.infinity
    var maxX = -Double.infinity
    var minY = Double.infinity
    var maxY = -Double.infinity
    for (index, sub) in subpaths.enumerated() {
      let end = index + 1 < subpaths.count ? subpaths[index + 1].start : xs.count
      guard end > sub.start else { continue }
      for i in sub.start..<end {
        let j = i + 1 < end ? i + 1 : sub.start  // every ring is closed for filling
        let (ax, ay, bx, by) = (xs[i], ys[i], xs[j], ys[j])
        minX = min(minX, ax)
        maxX = max(maxX, ax)
        minY = min(minY, ay)
        maxY = max(maxY, ay)
        if ay == by || !ay.isFinite || !by.isFinite { continue }
        if ay < by {
          edges.append(Edge(yTop: ay, yBottom: by, xAtTop: ax, slope: (bx - ax) / (by - ay)))
        } else {
          edges.append(Edge(yTop: by, yBottom: ay, xAtTop: bx, slope: (ax - bx) / (ay - by)))
        }
      }
    }
    let clip = state.clip
    guard minX.isFinite, maxX >= Double(clip.minX) - 1, minX <= Double(clip.maxX),
      maxY >= Double(clip.minY) - 1, minY <= Double(clip.maxY)
    else { return }
    let pattern = state.fillPattern
    let (ox, oy) = patternOrigin
    // A shape smaller than one dot still shows as one dot.
    if maxX - minX < 1 && maxY - minY < 1 {
      let x = Int(((minX + maxX) / 2).rounded(.down))
      let y = Int(((minY + maxY) / 2).rounded(.down))
      if x >= clip.minX && x < clip.maxX && y >= clip.minY && y < clip.maxY {
        canvas[x, y] = ink
      }
      return
    }
    edges.sort { $0.yTop < $1.yTop }
    let firstRow = max(clip.minY, Int((minY - 0.5).rounded(.up)))
    let lastRow = min(clip.maxY - 1, Int((maxY - 0.5).rounded(.down)))
    guard firstRow <= lastRow else { return }
    var active = scratch.active
    var crossings = scratch.crossings
    scratch.active = []
    scratch.crossings = []
    defer {
      scratch.active = active
      scratch.crossings = crossings
    }
    var next = 0
    let w = canvas.width
    let solid = pattern == .solid
    canvas.withDots { dots in
      for row in firstRow...lastRow {
        let yc = Double(row) + 0.5
        while next < edges.count && edges[next].yTop <= yc {
          active.append(next)
          next += 1
        }
        active.removeAll { edges[$0].yBottom <= yc }
        crossings.removeAll(keepingCapacity: true)
        for e in active where edges[e].yTop <= yc {
          crossings.append(edges[e].xAtTop + (yc - edges[e].yTop) * edges[e].slope)
        }
        guard crossings.count >= 2 else { continue }
        crossings.sort()
        var k = 0
        while k + 1 < crossings.count {
          let a = max(Int((crossings[k] - 0.5).rounded(.up)), clip.minX)
          let b = min(Int((crossings[k + 1] - 0.5).rounded(.up)) - 1, clip.maxX - 1)
          if a <= b {
            let base = row * w
            if solid {
              for x in a...b { dots[base + x] = ink }
            } else {
              for x in a...b where pattern.covers(x: x + ox, y: row + oy) { dots[base + x] = ink }
            }
          }
          k += 2
        }
      }
    }
  }
}

/// Buffers a fill works in, kept by the context between fills.
struct FillScratch {
  struct Edge {
    var yTop: Double
    var yBottom: Double
    var xAtTop: Double
    var slope: Double
  }
  var edges: [Edge] = []
  var active: [Int] = []
  var crossings: [Double] = []
}
