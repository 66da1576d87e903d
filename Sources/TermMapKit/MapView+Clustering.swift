import DotRaster
import MapGeometry

/// Annotations whose views collided and share a clustering identifier, shown as one marker
/// (MKClusterAnnotation).
///
/// The map makes one for each group of colliding views (through its delegate's
/// `mapView(_:clusterAnnotationForMemberAnnotations:)`) and shows it with a view like any other
/// annotation: it can be selected, and its callout counts and lists the members. To show the
/// members, fit the view to them: `map.showAnnotations(cluster.memberAnnotations, animated:)`.
/// A cluster is not one of the map's `annotations`.
public final class ClusterAnnotation: Annotation {
  /// The annotations the cluster stands for. In a cluster the map made, the first is the
  /// annotation whose marker held the place (the cluster stands there); the others follow in
  /// the map's own order (the same for the same content).
  public let memberAnnotations: [any Annotation]
  /// The first member's coordinate (where it is now: a cluster kept while its members move
  /// within their cells stands where its first member stands).
  public var coordinate: Coordinate {
    memberAnnotations.first?.coordinate ?? Coordinate(latitude: 0, longitude: 0)
  }
  /// The first member's title, or the count of members when it has none.
  public var title: String?
  /// How many members there are besides the first (when the title is the first's).
  public var subtitle: String?
  /// The other members' titles, up to eight, then "…" when there are more.
  public var detailLines: [String]

  /// How many titles `detailLines` lists.
  static let listedTitles = 8

  /// A cluster of annotations (it should hold at least one), with the standard callout text.
  public init(memberAnnotations: [any Annotation]) {
    self.memberAnnotations = memberAnnotations
    let first = memberAnnotations.first
    let count = memberAnnotations.count
    if let name = first?.title, !name.isEmpty {
      title = name
      subtitle = count > 1 ? "+\(count - 1) more" : nil
    } else {
      title = "\(count) annotations"
      subtitle = nil
    }
    var names: [String] = []
    for a in memberAnnotations.dropFirst() {
      guard let t = a.title, !t.isEmpty else { continue }
      if names.count == Self.listedTitles {
        names.append("…")
        break
      }
      names.append(t)
    }
    detailLines = names
  }
}

/// The standard view of a cluster: a `MarkerAnnotationView` whose glyph is "◉" ("#" in ASCII)
/// and whose label is the count of members.
@MainActor
open class ClusterAnnotationView: MarkerAnnotationView {
  /// A cluster marker for a cluster annotation.
  public required init(annotation: (any Annotation)?, reuseIdentifier: String?) {
    super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    glyph = StandardMarker.clusterGlyph
    asciiGlyph = StandardMarker.asciiClusterGlyph
  }

  /// Takes the count of members as the label.
  open override func prepareForDisplay() {
    super.prepareForDisplay()
    if let cluster = annotation as? ClusterAnnotation {
      label = String(cluster.memberAnnotations.count)
    }
  }
}

/// Clustering identifiers as small numbers, so the collision pass compares integers.
@MainActor
enum ClusteringKeys {
  static var keys: [String: Int32] = [:]

  static func key(for identifier: String?) -> Int32 {
    guard let identifier else { return -1 }
    if let k = keys[identifier] { return k }
    let k = Int32(keys.count)
    keys[identifier] = k
    return k
  }
}

/// A cluster on screen: its annotation and view, the views it replaces, and what it was made
/// from (a later pass with the same keeps it, so a selected cluster stays selected).
///
/// A class: each pass reads the record of every cluster on screen and keeps most of them, and
/// a reference is copied with one retain where the fields were four arrays and two objects.
@MainActor
final class ClusterRecord {
  let annotation: ClusterAnnotation
  let view: AnnotationView
  /// The member views, the one that held its place first.
  let memberViews: [AnnotationView]
  let signature: Signature
  /// The clustering pass that last kept it (`AnnotationViewRegistry.clusterPass`).
  var keptPass: UInt32 = 0

  init(
    annotation: ClusterAnnotation, view: AnnotationView, memberViews: [AnnotationView],
    signature: Signature
  ) {
    self.annotation = annotation
    self.view = view
    self.memberViews = memberViews
    self.signature = signature
  }

  /// The member views' annotations (their slots in the index) with the counts and the marks
  /// (`AnnotationIndex.mark(_:)`) of the annotations they stood for, at a zoom scale: the same
  /// signature means the same members, though they moved within their cells (live targets
  /// between two frames) or the map panned.
  struct Signature: Equatable {
    let slots: [Int32]
    let counts: [Int]
    let marks: [UInt64]
    let zoomScale: Double
  }
}

/// A clusterable view's claim in the clustering pass: its order of addition, its place in the
/// views, and its marker's cell.
struct ClusterClaim: Comparable {
  let order: Int
  let index: Int32
  let cell: Int32
  static func < (a: ClusterClaim, b: ClusterClaim) -> Bool {
    (a.order, a.index) < (b.order, b.index)
  }
}

extension MapView {
  /// The identifier of the standard cluster view (`ClusterAnnotationView`).
  public static let defaultClusterAnnotationViewReuseIdentifier =
    "termmap.default-cluster-annotation-view"

  /// Whether a view on screen has a clustering identifier.
  func viewsUseClustering() -> Bool {
    for v in annotationViews.shown where v.clusterKey >= 0 { return true }
    return false
  }

  /// Whether a view may join a cluster: it has an identifier and does not always show.
  func isClusterable(_ v: AnnotationView) -> Bool {
    v.clusterKey >= 0 && !v.isSelected && !v.isBeingDragged && v.collisionMode != .none
      && v.displayPriority != .required
  }

  /// Forms the clusters, before collisions are resolved, and returns the views that take part
  /// in them: the members' views left out (hidden), each cluster's view in the place of its
  /// first member's.
  ///
  /// Clusterable views on screen claim their cells (as in collisions: the marker and its
  /// label) first added first — not nearest the centre first, so clusters do not change when
  /// the map pans; one whose cells meet a claim of a view with the same identifier joins that
  /// view's cluster. A group with members becomes a cluster: kept when its views, their counts,
  /// the zoom and the annotations are as before (so a selected cluster stays selected), else
  /// made anew — the delegate hears `clusterAnnotationForMemberAnnotations`, `viewFor` and
  /// `didAdd` — after the clusters gone are dismissed (deselected first when selected).
  func formClusters(_ views: [AnnotationView], _ vp: Viewport) -> [AnnotationView] {
    let columns = vp.columns
    // The clusterable views on screen with their cells, first added first. (Sorted by the
    // keys' own `<`: a closure written here would be main-actor isolated, and checked to be on
    // the main actor at every comparison.)
    var claims: [ClusterClaim] = []
    for (n, v) in views.enumerated() where isClusterable(v) && v.layoutSlot >= 0 {
      guard let c = vp.cell(for: v.layoutPoint) else { continue }
      let col = c.column + v.centerOffset.columns
      let row = c.row + v.centerOffset.rows
      guard col >= 0 && row >= 0 && col < columns && row < vp.rows else { continue }
      claims.append(
        ClusterClaim(order: v.layoutOrder, index: Int32(n), cell: Int32(row * columns + col)))
    }
    claims.sort()
    // Which view claimed each cell (-1: none), and each member's first member. Each group's
    // members after its first, in the order they joined, are a list: `firstMember` of the
    // first, then `nextMember` of each.
    let listed = claims.isEmpty ? 0 : views.count
    var owner = [Int32](repeating: -1, count: claims.isEmpty ? 0 : columns * vp.rows)
    var headOf = [Int32](repeating: -1, count: listed)
    var firstMember = [Int32](repeating: -1, count: listed)
    var lastMember = [Int32](repeating: -1, count: listed)
    var nextMember = [Int32](repeating: -1, count: listed)
    var memberCount = [Int32](repeating: 0, count: listed)
    var heads: [Int32] = []
    for claim in claims {
      let v = views[Int(claim.index)]
      let first = Int(claim.cell)
      let end = first + Self.collisionWidth(v, column: first % columns, columns: columns)
      var head: Int32 = -1
      for k in first..<end where owner[k] >= 0 {
        if views[Int(owner[k])].clusterKey == v.clusterKey { head = owner[k] }
        break
      }
      if head >= 0 {
        let h = Int(head)
        headOf[Int(claim.index)] = head
        if firstMember[h] < 0 {
          heads.append(head)
          firstMember[h] = claim.index
        } else {
          nextMember[Int(lastMember[h])] = claim.index
        }
        lastMember[h] = claim.index
        memberCount[h] += 1
      } else {
        for k in first..<end where owner[k] < 0 { owner[k] = claim.index }
      }
    }
    // The clusters kept: those whose first member's annotation held a cluster made from the
    // same signature. (Compared with the views as they are, without building a signature
    // for every group; loops, not closures: a closure here would be checked to be on the
    // main actor at every call.)
    var old: [ObjectIdentifier: ClusterRecord] = [:]
    swap(&old, &annotationViews.clusters)
    // This pass's number: a record kept carries it (`ClusterRecord.keptPass`), so the records
    // gone are told without taking the kept ones out of `old`.
    annotationViews.clusterPass &+= 1
    let pass = annotationViews.clusterPass
    // Per group: its cluster's record when kept (by the group's place in `heads`, not hashed
    // again), and whether it is kept with the very same member views (nothing to change in
    // them).
    var kept = [ClusterRecord?](repeating: nil, count: heads.count)
    var sameViews = [Bool](repeating: false, count: heads.count)
    for (n, h) in heads.enumerated() {
      guard let a = views[Int(h)].annotation, let record = old[ObjectIdentifier(a)] else {
        continue
      }
      let sig = record.signature
      let count = Int(memberCount[Int(h)]) + 1
      guard sig.zoomScale == vp.zoomScale, sig.slots.count == count else { continue }
      var matches = true
      var same = record.memberViews.count == count
      var m = h
      var k = 0
      while m >= 0 {
        let v = views[Int(m)]
        if sig.slots[k] != v.layoutSlot || sig.counts[k] != v.representedCount
          || sig.marks[k] != v.representedMarks
        {
          matches = false
          break
        }
        if same && (record.memberViews[k] !== v || !v.isClusterMember) { same = false }
        k += 1
        m = m == h ? firstMember[Int(h)] : nextMember[Int(m)]
      }
      guard matches else { continue }
      kept[n] = record
      record.keptPass = pass
      sameViews[n] = same
    }
    var gone: [ClusterRecord] = []
    for record in old.values where record.keptPass != pass { gone.append(record) }
    // Member views leave the clusters that are gone or changed their views (those kept with
    // the same views keep them).
    for record in gone {
      for m in record.memberViews { m.cluster = nil }
    }
    for n in heads.indices where !sameViews[n] {
      guard let record = kept[n] else { continue }
      for m in record.memberViews { m.cluster = nil }
    }
    for record in Self.inOrder(gone) { dismissCluster(record) }
    // The clusters made and kept, in the order they formed.
    var clusters: [ObjectIdentifier: ClusterRecord] = [:]
    clusters.reserveCapacity(heads.count)
    var clusterViews: [AnnotationView] = []
    clusterViews.reserveCapacity(heads.count)
    // Each head's cluster view, by the head's place in `views` (read for every view below: an
    // array, not a dictionary hashing each).
    var viewOfHead = [AnnotationView?](repeating: nil, count: heads.isEmpty ? 0 : views.count)
    var added: [AnnotationView] = []
    // The member views of the groups not kept with the same views.
    var memberViews: [[AnnotationView]] = []
    memberViews.reserveCapacity(heads.count)
    for (n, h) in heads.enumerated() {
      guard !sameViews[n] else {
        memberViews.append([])
        continue
      }
      var members: [AnnotationView] = []
      members.reserveCapacity(Int(memberCount[Int(h)]) + 1)
      var m = h
      while m >= 0 {
        members.append(views[Int(m)])
        m = m == h ? firstMember[Int(h)] : nextMember[Int(m)]
      }
      memberViews.append(members)
    }
    let members = memberAnnotations(of: memberViews, except: kept, vp)
    for (n, h) in heads.enumerated() {
      let head = views[Int(h)]
      guard let headAnnotation = head.annotation else { continue }
      let key = ObjectIdentifier(headAnnotation)
      let record: ClusterRecord
      if let k = kept[n] {
        // The same annotations; their views may be others (one left the screen and came back).
        record =
          sameViews[n]
          ? k
          : ClusterRecord(
            annotation: k.annotation, view: k.view, memberViews: memberViews[n],
            signature: k.signature)
      } else {
        let memberAnnotations = members[n]
        let cluster =
          delegate?.mapView(self, clusterAnnotationForMemberAnnotations: memberAnnotations)
          ?? ClusterAnnotation(memberAnnotations: memberAnnotations)
        let view = makeView(for: cluster)
        view.prepareForDisplay()
        annotationViews.visible[ObjectIdentifier(cluster)] = view
        var slots: [Int32] = []
        var counts: [Int] = []
        var marks: [UInt64] = []
        slots.reserveCapacity(memberViews[n].count)
        counts.reserveCapacity(memberViews[n].count)
        marks.reserveCapacity(memberViews[n].count)
        for m in memberViews[n] {
          slots.append(m.layoutSlot)
          counts.append(m.representedCount)
          marks.append(m.representedMarks)
        }
        record = ClusterRecord(
          annotation: cluster, view: view, memberViews: memberViews[n],
          signature: ClusterRecord.Signature(
            slots: slots, counts: counts, marks: marks, zoomScale: vp.zoomScale))
        added.append(view)
      }
      let view = record.view
      view.layoutSlot = head.layoutSlot
      view.layoutPoint = head.layoutPoint
      view.layoutOrder = head.layoutOrder
      view.representedCount = 1
      view.clusterMemberCount = max(record.annotation.memberAnnotations.count, 1)
      if sameViews[n] {
        for m in record.memberViews { m.isHidden = true }
      } else {
        for m in record.memberViews {
          m.isHidden = true
          m.cluster = view
        }
      }
      clusters[key] = record
      clusterViews.append(view)
      viewOfHead[Int(h)] = view
    }
    annotationViews.clusters = clusters
    annotationViews.clusterViews = clusterViews
    if !added.isEmpty { delegate?.mapView(self, didAdd: added) }
    guard !heads.isEmpty else { return views }
    // The views that take part in collisions: a cluster's view in its first member's place.
    var placed: [AnnotationView] = []
    placed.reserveCapacity(views.count)
    for (n, v) in views.enumerated() {
      if let c = viewOfHead[n] {
        placed.append(c)
      } else if headOf[n] < 0 {
        placed.append(v)
      }
    }
    return placed
  }

  /// The annotations of the groups of views not kept, each group's first view's annotation
  /// first: the annotations their cells stand for. A few views' cells are read one by one from
  /// the index, many in one walk of the screen.
  func memberAnnotations(
    of groups: [[AnnotationView]], except kept: [ClusterRecord?], _ vp: Viewport
  ) -> [[any Annotation]] {
    var out = [[any Annotation]](repeating: [], count: groups.count)
    var wanted: [Int] = []
    var cells = 0
    for (n, g) in groups.enumerated() {
      // (A group kept with the same views comes empty.)
      guard !g.isEmpty, kept[n] == nil else { continue }
      wanted.append(n)
      cells += g.count
    }
    guard !wanted.isEmpty else { return out }
    if cells <= 64 {
      for n in wanted {
        for v in groups[n] {
          guard let c = vp.cell(for: v.layoutPoint) else { continue }
          out[n] += annotationIndex.members(
            ofCell: c.column, row: c.row, first: v.layoutSlot, viewport: vp)
        }
      }
      return out
    }
    var groupOf = [Int32](repeating: -1, count: vp.columns * vp.rows)
    for n in wanted {
      for v in groups[n] {
        guard let c = vp.cell(for: v.layoutPoint) else { continue }
        groupOf[c.row * vp.columns + c.column] = Int32(n)
      }
    }
    var slots = [[Int32]](repeating: [], count: groups.count)
    annotationIndex.memberSlots(groupOf: groupOf, viewport: vp, into: &slots)
    for n in wanted {
      // The first view's annotation first: the cluster stands where it stands.
      let first = groups[n][0].layoutSlot
      if let i = slots[n].firstIndex(of: first), i > 0 {
        slots[n].remove(at: i)
        slots[n].insert(first, at: 0)
      }
      out[n] = annotationIndex.annotations(inSlots: slots[n])
    }
    return out
  }

  /// Takes a cluster off the map: deselected (the delegate hears it) when selected, its view
  /// to the reuse queue.
  func dismissCluster(_ record: ClusterRecord) {
    if let s = annotationViews.selected, s === record.annotation {
      deselectAnnotation(s, animated: false)
    }
    annotationViews.visible[ObjectIdentifier(record.annotation)] = nil
    record.view.clusterMemberCount = 0
    enqueue(record.view)
  }

  /// Clusters in the order their first members were added.
  static func inOrder(_ records: some Collection<ClusterRecord>) -> [ClusterRecord] {
    var keys: [ClusterClaim] = []
    var list: [ClusterRecord] = []
    for r in records {
      keys.append(ClusterClaim(order: r.view.layoutOrder, index: Int32(list.count), cell: 0))
      list.append(r)
    }
    keys.sort()
    var out: [ClusterRecord] = []
    out.reserveCapacity(list.count)
    for k in keys { out.append(list[Int(k.index)]) }
    return out
  }

  /// Takes every cluster off the map.
  func dismissAllClusters() {
    let records = Self.inOrder(annotationViews.clusters.values)
    annotationViews.clusters = [:]
    annotationViews.clusterViews = []
    for record in records {
      for m in record.memberViews { m.cluster = nil }
      dismissCluster(record)
    }
  }
}
