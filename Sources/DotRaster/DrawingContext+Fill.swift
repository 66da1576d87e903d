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
    var bounds = FillScratch.Bounds()
    xs.withUnsafeBufferPointer { xs in
      ys.withUnsafeBufferPointer { ys in
        for (index, sub) in subpaths.enumerated() {
          let end = index + 1 < subpaths.count ? subpaths[index + 1].start : xs.count
          FillScratch.addRing(xs, ys, sub.start..<end, to: &edges, bounds: &bounds)
        }
      }
    }
    // (Cut to the canvas: one lent out meanwhile is empty, and nothing is drawn.)
    let clip = state.clip.intersection(
      DotRect(minX: 0, minY: 0, maxX: canvas.width, maxY: canvas.height))
    guard bounds.meets(clip) else { return }
    let pattern = state.fillPattern
    let (ox, oy) = patternOrigin
    // A shape smaller than one dot still shows as one dot.
    if let (x, y) = bounds.speck {
      if x >= clip.minX && x < clip.maxX && y >= clip.minY && y < clip.maxY {
        canvas[x, y] = ink
      }
      return
    }
    edges.sort { $0.yTop < $1.yTop }
    let firstRow = max(clip.minY, Int((bounds.minY - 0.5).rounded(.up)))
    let lastRow = min(clip.maxY - 1, Int((bounds.maxY - 0.5).rounded(.down)))
    guard firstRow <= lastRow else { return }
    var next = 0
    let w = canvas.width
    let solid = pattern == .solid
    // The edges crossing the row (those begun above it and not yet ended, in the order they
    // began) and their crossings, sorted as they come (a row of a map's polygon crosses a few
    // edges: an insertion gives what sorting them gave, without the calls per row of a
    // growable array; a crossing is finite, or its dot below would not convert).
    let edgeCount = edges.count
    edges.withUnsafeBufferPointer { edges in
      withUnsafeTemporaryAllocation(of: Int.self, capacity: edgeCount) { active in
        withUnsafeTemporaryAllocation(of: Double.self, capacity: edgeCount) { crossings in
          var activeCount = 0
          canvas.withDots { dots in
            for row in firstRow...lastRow {
              let yc = Double(row) + 0.5
              while next < edgeCount && edges[next].yTop <= yc {
                active[activeCount] = next
                activeCount += 1
                next += 1
              }
              var kept = 0
              var count = 0
              for a in 0..<activeCount {
                let e = active[a]
                if edges[e].yBottom <= yc { continue }
                active[kept] = e
                kept += 1
                guard edges[e].yTop <= yc else { continue }
                let x = edges[e].xAtTop + (yc - edges[e].yTop) * edges[e].slope
                var j = count
                while j > 0 && x < crossings[j - 1] {
                  crossings[j] = crossings[j - 1]
                  j -= 1
                }
                crossings[j] = x
                count += 1
              }
              activeCount = kept
              guard count >= 2 else { continue }
              // The pattern's dots on this row: those of even and of odd columns (of the
              // pattern's grid), both (a solid run), one of them (every other dot) or none.
              let even = solid || pattern.covers(x: 0, y: row + oy)
              let odd = solid || pattern.covers(x: 1, y: row + oy)
              guard even || odd else { continue }
              var k = 0
              while k + 1 < count {
                let a = max(Int((crossings[k] - 0.5).rounded(.up)), clip.minX)
                let b = min(Int((crossings[k + 1] - 0.5).rounded(.up)) - 1, clip.maxX - 1)
                if a <= b {
                  let base = row * w
                  if even && odd {
                    for x in a...b { dots[base + x] = ink }
                  } else {
                    // The first column of the right parity from a, then every other one.
                    let first = a + (((even ? 0 : 1) - (a + ox)) & 1)
                    for x in stride(from: first, through: b, by: 2) { dots[base + x] = ink }
                  }
                }
                k += 2
              }
            }
          }
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

  /// The bounds of the points of a fill's rings (empty: no point yet).
  struct Bounds {
    var minX = Double.infinity
    var maxX = -Double.infinity
    var minY = Double.infinity
    var maxY = -Double.infinity

    /// Whether the rings can ink a dot of `clip`.
    func meets(_ clip: DotRect) -> Bool {
      minX.isFinite && maxX >= Double(clip.minX) - 1 && minX <= Double(clip.maxX)
        && maxY >= Double(clip.minY) - 1 && minY <= Double(clip.maxY)
    }

    /// The one dot a shape smaller than a dot shows as (nil: the shape is larger).
    @inline(__always) var speck: (x: Int, y: Int)? {
      guard maxX - minX < 1 && maxY - minY < 1 else { return nil }
      return (Int(((minX + maxX) / 2).rounded(.down)), Int(((minY + maxY) / 2).rounded(.down)))
    }
  }

  /// Adds the edges of the ring `range` of the points, closed (as every ring is for filling),
  /// to `edges`, leaving out horizontal edges and those with an end that is not finite, and
  /// widens `bounds` over its points.
  @inline(__always)
  static func addRing(
    _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>, _ range: Range<Int>,
    to edges: inout [Edge], bounds b: inout Bounds
  ) {
    for i in range {
      let j = i + 1 < range.upperBound ? i + 1 : range.lowerBound
      let (ax, ay, bx, by) = (xs[i], ys[i], xs[j], ys[j])
      b.minX = min(b.minX, ax)
      b.maxX = max(b.maxX, ax)
      b.minY = min(b.minY, ay)
      b.maxY = max(b.maxY, ay)
      if ay == by || !ay.isFinite || !by.isFinite { continue }
      if ay < by {
        edges.append(Edge(yTop: ay, yBottom: by, xAtTop: ax, slope: (bx - ax) / (by - ay)))
      } else {
        edges.append(Edge(yTop: by, yBottom: ay, xAtTop: bx, slope: (ax - bx) / (ay - by)))
      }
    }
  }
}
