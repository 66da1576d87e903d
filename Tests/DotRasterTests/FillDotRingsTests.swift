import Foundation
import Testing

@testable import DotRaster

@Suite("fillDotRings draws what a path filled draws")
struct FillDotRingsTests {
  typealias Ring = [(Double, Double)]

  /// Hand-made polygons that make a scanline fill slip: holes either way round, touching and
  /// overlapping squares, a bow tie, rings of one and two points, vertices on dot centres,
  /// horizontal and vertical edges, a speck, a shape beyond the canvas, points that are not
  /// finite down.
  static let tricky: [(String, [Ring])] = [
    ("square", [[(2, 3), (9, 3), (9, 8), (2, 8)]]),
    (
      "hole clockwise",
      [[(1, 1), (18, 1), (18, 14), (1, 14)], [(5, 5), (12, 5), (12, 10), (5, 10)]]
    ),
    (
      "hole counter-clockwise",
      [[(1, 1), (18, 1), (18, 14), (1, 14)], [(5, 5), (5, 10), (12, 10), (12, 5)]]
    ),
    ("touching", [[(2, 2), (8, 2), (8, 9), (2, 9)], [(8, 2), (14, 2), (14, 9), (8, 9)]]),
    ("overlapping", [[(2, 2), (10, 2), (10, 9), (2, 9)], [(6, 4), (15, 4), (15, 12), (6, 12)]]),
    ("bow tie", [[(2, 2), (14, 12), (14, 2), (2, 12)]]),
    ("on dot centres", [[(2.5, 2.5), (10.5, 2.5), (10.5, 9.5), (6.5, 12.5), (2.5, 9.5)]]),
    ("one and two points", [[(4, 4)], [(3, 3), (9, 7)], [(1, 1), (12, 1), (12, 6), (1, 6)]]),
    ("speck", [[(3.2, 4.1), (3.5, 4.1), (3.5, 4.3)]]),
    ("thin sliver", [[(1, 5.2), (17, 5.3), (17, 5.6), (1, 5.4)]]),
    ("beyond the canvas", [[(-40, -30), (60, -30), (60, 50), (-40, 50)]]),
    ("outside", [[(30, 30), (40, 30), (40, 40)]]),
    // (Points not finite, or beyond any integer, draw what they can and never trap.)
    ("not finite down", [[(2, 2), (12, 2), (6, .nan), (12, 10), (2, 10)]]),
    ("not finite across", [[(2, 2), (.nan, 6), (12, 10), (2, 10)]]),
    ("infinite across", [[(2, 2), (.infinity, 6), (12, 10), (-.infinity, 9)]]),
    ("infinite down", [[(2, 2), (12, -.infinity), (12, 10), (2, .infinity)]]),
    ("beyond any integer", [[(2, 2), (1e300, 6), (12, 1e300), (-1e300, -1e300)]]),
    ("none", []),
  ]

  /// Draws `polygons` one fill each (and, with `outline`, each one's outline stroked after
  /// its fill, as a vector tile's buildings are) through the path or through `fillDotRings`.
  static func draw(
    _ polygons: [[Ring]], rings: Bool, color: TermColor, pattern: DotPattern = .solid,
    lineFirst: Bool = false, outline: Bool = false, clip: Rect2D? = nil,
    origin: (x: Int, y: Int) = (0, 0)
  ) -> DotCanvas {
    let c = DrawingContext(canvas: DotCanvas(columns: 10, rows: 4), patternOrigin: origin)
    if let clip { c.clip(to: clip) }
    c.fillColor = color
    c.fillPattern = pattern
    c.strokeColor = outline ? TermColor(red: 200, green: 30, blue: 40) : nil
    for polygon in polygons {
      func add<Sink: DotLineSink>(_ sink: inout Sink) {
        for (n, ring) in polygon.enumerated() {
          for (i, p) in ring.enumerated() {
            if i == 0 && !(lineFirst && n == 0) {
              sink.move(x: p.0, y: p.1, dashOffset: 0)
            } else {
              sink.line(x: p.0, y: p.1)
            }
          }
        }
      }
      if rings {
        c.fillDotRings { add(&$0) }
      } else {
        c.withDotPath { add(&$0) }
        c.fillPath()
      }
      if outline { c.strokeDotLines { add(&$0) } }
    }
    return c.takeCanvas()
  }

  @Test(
    "Tricky polygons: the same dots and colours, in palette and 24-bit colours, solid and patterned, clipped",
    arguments: [false, true])
  func tricky(_ trueColor: Bool) {
    let color = trueColor ? TermColor(red: 10, green: 120, blue: 250) : .blue
    for (name, polygon) in Self.tricky {
      for pattern in [DotPattern.solid, .checker, .sparse, .hatch] {
        for clip in [nil, Rect2D(x: 3, y: 2, width: 9, height: 7)] {
          for lineFirst in [false, true] {
            let path = Self.draw(
              [polygon], rings: false, color: color, pattern: pattern, lineFirst: lineFirst,
              clip: clip, origin: (1, 3))
            let rings = Self.draw(
              [polygon], rings: true, color: color, pattern: pattern, lineFirst: lineFirst,
              clip: clip, origin: (1, 3))
            #expect(rings == path, "\(name) \(pattern) \(String(describing: clip))")
          }
        }
      }
    }
    // (The cases draw something: a fill that draws nothing would pass the comparison.)
    let square = Self.draw([Self.tricky[1].1], rings: true, color: color)
    #expect(square.dots.filter { !$0.isEmpty }.count == 17 * 13 - 7 * 5)
  }

  @Test(
    "Many random polygons in a row, each outlined after its fill: the same canvas",
    arguments: [false, true])
  func randomPolygons(_ trueColor: Bool) {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func random(_ n: Int) -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double((seed >> 33) % UInt64(n * 8)) / 8
    }
    var polygons: [[Ring]] = []
    for _ in 0..<200 {
      let rings = 1 + Int(random(3))
      polygons.append(
        (0..<rings).map { _ in
          let (cx, cy) = (random(24) - 2, random(20) - 2)
          return (0..<(1 + Int(random(7)))).map { _ in (cx + random(9), cy + random(7)) }
        })
    }
    let color = trueColor ? TermColor(red: 10, green: 120, blue: 250) : .cyan
    let path = Self.draw(polygons, rings: false, color: color, outline: true)
    let rings = Self.draw(polygons, rings: true, color: color, outline: true)
    #expect(rings == path)
    #expect(path.dots.contains { $0.layer == DrawingContext.fillLayer })
  }

  /// The dots a fill of `polygon` inks, worked out dot by dot: the pattern's dots of `clip`
  /// whose centres have an odd number of the rings' crossings at or to their left (each
  /// crossing from `FillScratch.Edge` as the fill makes it: top inclusive, bottom exclusive),
  /// or the speck of a shape smaller than a dot. As indices into a canvas `width` dots wide.
  static func inkedDotByDot(
    _ polygon: [Ring], pattern: DotPattern, clip: DotRect, origin: (x: Int, y: Int), width: Int
  ) -> Set<Int> {
    var edges: [FillScratch.Edge] = []
    var b = FillScratch.Bounds()
    for ring in polygon {
      for (i, p) in ring.enumerated() {
        let q = ring[(i + 1) % ring.count]
        b.widen(p.0, p.1)
        if p.1 != q.1 { edges.append(FillScratch.Edge(p.0, p.1, q.0, q.1)) }
      }
    }
    guard b.minX.isFinite else { return [] }
    func inClip(_ x: Int, _ y: Int) -> Bool {
      x >= clip.minX && x < clip.maxX && y >= clip.minY && y < clip.maxY
    }
    if let (x, y) = b.speck { return inClip(x, y) ? [y * width + x] : [] }
    var inked = Set<Int>()
    for y in clip.minY..<clip.maxY {
      let yc = Double(y) + 0.5
      let crossings = edges.filter { $0.yTop <= yc && $0.yBottom > yc }.map {
        $0.xAtTop + (yc - $0.yTop) * $0.slope
      }
      for x in clip.minX..<clip.maxX where pattern.covers(x: x + origin.x, y: y + origin.y) {
        let xc = Double(x) + 0.5
        if crossings.filter({ $0 <= xc }).count % 2 == 1 { inked.insert(y * width + x) }
      }
    }
    return inked
  }

  @Test(
    "Fills of few and many edges ink the dots a test of each dot's centre inks",
    arguments: [DotPattern.solid, .checker, .sparse, .hatch])
  func fillsAsDotByDot(_ pattern: DotPattern) {
    var seed: UInt64 = 0x7A11_F111_D07B_1D07
    func random(_ n: Int) -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double((seed >> 33) % UInt64(n * 8)) / 8
    }
    var drawn = 0
    var many = 0
    for n in 0..<240 {
      // (One to three rings of 1 to 24 points: fills of few edges and of many, holes,
      // crossings, rings beyond the canvas's edges.)
      let polygon: [Ring] = (0..<(1 + Int(random(3)))).map { _ in
        let (cx, cy) = (random(26) - 4, random(22) - 4)
        return (0..<(1 + Int(random(24)))).map { _ in (cx + random(14), cy + random(12)) }
      }
      if polygon.reduce(0, { $0 + $1.count }) > FillScratch.fewEdges { many += 1 }
      let origin = (x: n % 3, y: n % 4)
      for clip in [nil, Rect2D(x: 3, y: 2, width: 9, height: 7)] {
        let canvas = Self.draw(
          [polygon], rings: true, color: .green, pattern: pattern, clip: clip, origin: origin)
        let inked = Set(canvas.dots.indices.filter { !canvas.dots[$0].isEmpty })
        let dotClip =
          clip == nil
          ? DotRect(minX: 0, minY: 0, maxX: 20, maxY: 16)
          : DotRect(minX: 3, minY: 2, maxX: 12, maxY: 9)
        let expected = Self.inkedDotByDot(
          polygon, pattern: pattern, clip: dotClip, origin: origin, width: canvas.width)
        #expect(inked == expected, "\(n) \(polygon) \(String(describing: clip))")
        drawn += inked.count
      }
    }
    // (Both kinds of fill were drawn, and drew: the sparse pattern's one dot in eight drew
    // 892.)
    #expect(many > 50 && many < 200)
    #expect(drawn > 500)
  }

  /// A ring of 20 edges to the right of the canvas, over rows -10 to 30: its crossings lie
  /// beyond the clip and after every other crossing of a row, so it inks nothing and leaves
  /// the pairs of the others alone, but it takes a fill past `FillScratch.fewEdges`.
  static let farRing: Ring = (0..<20).map { k in
    let a = Double(k) / 20 * 2 * Double.pi
    return (120 + 15 * cos(a), 10 + 20 * sin(a))
  }

  @Test(
    "A fill of few edges (each row from all of them) draws what the sorted edge table draws",
    arguments: [DotPattern.solid, .checker, .sparse, .hatch])
  func fewEdgesAsSorted(_ pattern: DotPattern) {
    var seed: UInt64 = 0x1234_5678_9ABC_DEF1
    func random(_ n: Int) -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double((seed >> 33) % UInt64(n * 8)) / 8
    }
    // Not the speck (with the far ring its bounds are no longer a dot's) nor the rings with a
    // point not finite (their rows may cross an odd number of edges, and the far ring's first
    // crossing would pair with the last of theirs).
    var cases = Self.tricky.filter {
      $0.0 != "speck" && $0.1.allSatisfy { $0.allSatisfy { $0.0.isFinite && $0.1.isFinite } }
    }
    for n in 0..<150 {
      let (cx, cy) = (random(24) - 2, random(20) - 2)
      // (Three points or more, at least a dot apart down: no speck.)
      var ring = [(cx, cy), (cx + random(9), cy + 1 + random(6))]
      ring += (0..<(1 + Int(random(6)))).map { _ in (cx + random(9), cy + random(7)) }
      cases.append(("random \(n)", [ring]))
    }
    var drawn = 0
    for (name, polygon) in cases {
      // (The polygons' own edges are few: at most 16.)
      #expect(polygon.reduce(0) { $0 + $1.count } <= 16, "\(name)")
      for clip in [nil, Rect2D(x: 3, y: 2, width: 9, height: 7)] {
        let few = Self.draw(
          [polygon], rings: true, color: .green, pattern: pattern, clip: clip, origin: (1, 3))
        let sorted = Self.draw(
          [polygon + [Self.farRing]], rings: true, color: .green, pattern: pattern, clip: clip,
          origin: (1, 3))
        #expect(few == sorted, "\(name) \(String(describing: clip))")
        drawn += few.dots.filter { !$0.isEmpty }.count
      }
    }
    // (Fills drew: two that drew nothing would pass the comparison.)
    #expect(drawn > 200)
  }

  @Test("Without a fill colour fillDotRings draws nothing and does not ask for the rings")
  func noFillColour() {
    let c = DrawingContext(canvas: DotCanvas(columns: 4, rows: 2))
    c.fillColor = nil
    var asked = false
    c.fillDotRings { _ in asked = true }
    #expect(!asked)
    #expect(c.takeCanvas().isBlank)
  }

  @Test(
    "A batch of fills and outlines draws what fillDotRings and strokeDotLines(within:) draw, pending draws included",
    arguments: [false, true])
  func fillOutlineBatch(_ trueColor: Bool) {
    var seed: UInt64 = 0x0DDB_A11F_EED5_1234
    func random(_ n: Int) -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double((seed >> 33) % UInt64(n * 8)) / 8
    }
    var polygons: [[Ring]] = []
    for _ in 0..<120 {
      polygons.append(
        (0..<(1 + Int(random(2)))).map { _ in
          let (cx, cy) = (random(30) - 5, random(24) - 5)
          return (0..<(1 + Int(random(7)))).map { _ in (cx + random(9), cy + random(7)) }
        })
    }
    // Polygons beyond the clip and the canvas (areas that take no dot), and one
    // after them whose area is the first again.
    polygons += [
      [[(40, 3), (44, 3), (44, 6)]], [[(-9, -9), (-6, -9), (-7, -5)]],
      [[(2, 30), (6, 31), (3, 34)]],
      [[(4, 4), (8, 4), (8, 8)]],
    ]
    // Polygons in the tricky list with finite points, and one dot apart.
    polygons += Self.tricky.map(\.1).filter {
      $0.allSatisfy { $0.allSatisfy { $0.0.isFinite && $0.1.isFinite } }
    }
    let fillColor = trueColor ? TermColor(red: 10, green: 120, blue: 250) : .cyan
    let strokeColor = trueColor ? TermColor(red: 200, green: 30, blue: 40) : .red
    var drawn = 0
    for fills in [true, false] {
      for (width, dashes) in [(1.0, [Double]()), (3.0, []), (1.0, [2.0, 1.0])] {
        for clip in [nil, Rect2D(x: 3, y: 2, width: 11, height: 9)] {
          for pattern in [DotPattern.solid, .sparse, .hatch] {
            func draw(batch: Bool) -> (DotCanvas, PendingInks, DotRect) {
              let c = DrawingContext(canvas: DotCanvas(columns: 10, rows: 4), patternOrigin: (1, 2))
              if let clip { c.clip(to: clip) }
              c.fillColor = fills ? fillColor : nil
              c.fillPattern = pattern
              c.strokeColor = strokeColor
              c.lineWidth = width
              c.setLineDash(phase: 0, lengths: dashes)
              func add<Sink: DotLineSink>(_ polygon: [Ring], _ sink: inout Sink) {
                for ring in polygon {
                  for (i, p) in ring.enumerated() {
                    if i == 0 {
                      sink.move(x: p.0, y: p.1, dashOffset: 0)
                    } else {
                      sink.line(x: p.0, y: p.1)
                    }
                  }
                }
              }
              func box(_ polygon: [Ring]) -> Rect2D {
                let xs = polygon.flatMap { $0.map(\.0) }
                let ys = polygon.flatMap { $0.map(\.1) }
                let (x0, y0) = (xs.min() ?? 0, ys.min() ?? 0)
                return Rect2D(
                  x: x0, y: y0, width: (xs.max() ?? 0) - x0, height: (ys.max() ?? 0) - y0)
              }
              if batch {
                c.withFillsAndOutlines { batch in
                  for polygon in polygons {
                    batch.fill { add(polygon, &$0) }
                    batch.outline(within: box(polygon)) { add(polygon, &$0) }
                  }
                }
              } else {
                for polygon in polygons {
                  c.fillDotRings { add(polygon, &$0) }
                  c.strokeDotLines(within: box(polygon)) { add(polygon, &$0) }
                }
              }
              // (The area the pending draws are settled in: the batch's is made once.)
              let area = c.pending.area
              let (canvas, pending) = c.takeCanvasUnsettled()
              return (canvas, pending, area)
            }
            let (a, pa, areaA) = draw(batch: false)
            let (b, pb, areaB) = draw(batch: true)
            #expect(a == b, "fills \(fills) width \(width) \(dashes) \(pattern)")
            #expect(areaA == areaB, "fills \(fills) width \(width) \(dashes) \(pattern)")
            #expect(pa.hasColor == pb.hasColor)
            #expect(pa.entries.map(\.ink) == pb.entries.map(\.ink))
            #expect(pa.entries.map(\.entry) == pb.entries.map(\.entry))
            drawn += a.dots.filter { !$0.isEmpty }.count
          }
        }
      }
    }
    #expect(drawn > 1000)
  }

  @Test("A batch without colours draws nothing and does not ask for the lines")
  func fillOutlineBatchWithoutColours() {
    let c = DrawingContext(canvas: DotCanvas(columns: 4, rows: 2))
    c.fillColor = nil
    c.strokeColor = nil
    var asked = false
    c.withFillsAndOutlines { batch in
      batch.fill { _ in asked = true }
      batch.outline(within: Rect2D(x: 0, y: 0, width: 4, height: 4)) { _ in asked = true }
    }
    #expect(!asked)
    #expect(c.takeCanvas().isBlank)
  }
}
