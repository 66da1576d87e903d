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

  /// "+N more" for the counts of other members clusters have most (formatted once, not for
  /// each cluster made).
  static let moreSubtitles: [String] = (0..<32).map { "+\($0) more" }

  /// The subtitle of a cluster with `others` members besides the first: "+N more".
  static func moreSubtitle(_ others: Int) -> String {
    others >= 0 && others < moreSubtitles.count ? moreSubtitles[others] : "+\(others) more"
  }

  /// A cluster of annotations (it should hold at least one), with the standard callout text.
  public init(memberAnnotations: [any Annotation]) {
    self.memberAnnotations = memberAnnotations
    let first = memberAnnotations.first
    let count = memberAnnotations.count
    if let name = first?.title, !name.isEmpty {
      title = name
      subtitle = count > 1 ? Self.moreSubtitle(count - 1) : nil
    } else {
      title = "\(count) annotations"
      subtitle = nil
    }
    // (Room for every title listed at once: grown append by append, the list was copied once
    // or twice a cluster.)
    var names: [String] = []
    if count > 1 { names.reserveCapacity(min(count - 1, Self.listedTitles + 1)) }
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
  /// The first member's slot in the index (`signature.members[0].slot`, read without the array), where
  /// `AnnotationViewRegistry.clusterSlots` holds the record.
  let headSlot: Int32
  /// The first member's annotation's place in the order of addition: a slot freed and taken by
  /// another annotation since does not find this record.
  let headOrder: Int

  init(
    annotation: ClusterAnnotation, view: AnnotationView, memberViews: [AnnotationView],
    signature: Signature, headOrder: Int
  ) {
    self.annotation = annotation
    self.view = view
    self.memberViews = memberViews
    self.signature = signature
    self.headSlot = signature.members.first?.slot ?? -1
    self.headOrder = headOrder
  }

  /// The member views' annotations (their slots in the index) with the counts and the marks
  /// (`AnnotationIndex.mark(_:)`) of the annotations they stood for, at a zoom scale: the same
  /// signature means the same members, though they moved within their cells (live targets
  /// between two frames) or the map panned.
  struct Signature: Equatable {
    /// Each member view's slot, count and marks (one array: a cluster made is one allocation,
    /// not three).
    let members: [Member]
    let zoomScale: Double
  }

  /// A member view's slot (`layoutSlot`), count (`representedCount`) and marks
  /// (`representedMarks`) in a signature.
  struct Member: Equatable {
    let slot: Int32
    let count: Int
    let marks: UInt64
  }
}

/// A cluster on screen as its first member's slot holds it (`AnnotationViewRegistry.clusterSlots`):
/// what a clustering pass reads of every cluster, in an array by slot, so a cluster kept as it
/// was is kept without reaching its record (a cache miss each, for thousands of clusters).
struct ClusterSlot {
  /// The cluster's record (nil: no cluster stands at this slot).
  var record: ClusterRecord?
  /// Its view (`record.view`).
  var view: AnnotationView?
  /// `record.headOrder`.
  var headOrder = -1
  /// The clustering pass that last kept or made it (`AnnotationViewRegistry.clusterPass`).
  var keptPass: UInt32 = 0
  /// Where the claims of its members in that pass are in `ClusterPass.members`, and how many.
  var claimsStart: Int32 = 0
  var claimsCount: Int32 = 0
}

/// A clusterable view's claim in the clustering pass: its order of addition, its place in the
/// views, its marker's cell and the cells it claims, its identifier, and what a cluster's
/// signature holds of it (its slot, count and marks).
///
/// A pass keeps its groups' claims for the next (`ClusterPass`): a group whose members' claims
/// are those its cluster was made or kept from (`sameMember(_:_:)`) is that cluster, with the
/// same views, kept without reading its record's signature nor writing to its members' views.
struct ClusterClaim: Comparable {
  let order: Int
  let index: Int32
  let cell: Int32
  /// How many cells it claims from `cell` rightwards (`MapView.collisionWidth`).
  var width: Int32 = 1
  /// The view's `clusterKey`.
  var key: Int32 = -1
  /// The view's `layoutSlot`, `representedCount` and `representedMarks`.
  var slot: Int32 = -1
  var count = 0
  var marks: UInt64 = 0
  /// The view.
  var view: ObjectIdentifier? = nil
  /// The view's `layoutPoint`.
  var point = MapPoint(x: 0, y: 0)

  static func < (a: ClusterClaim, b: ClusterClaim) -> Bool {
    (a.order, a.index) < (b.order, b.index)
  }

  /// The same member of a cluster's signature (its slot, count and marks), by the same view of
  /// the same annotation.
  @inline(__always)
  static func sameMember(_ a: ClusterClaim, _ b: ClusterClaim) -> Bool {
    a.slot == b.slot && a.order == b.order && a.count == b.count && a.marks == b.marks
      && a.view == b.view
  }
}

/// A cluster's first member's order of addition and its place in a list, sorted by the order
/// (`MapView.inOrder(_:orders:)`).
struct OrderKey: Comparable {
  let order: Int
  let index: Int

  static func < (a: OrderKey, b: OrderKey) -> Bool {
    (a.order, a.index) < (b.order, b.index)
  }
}

extension ClusterClaim {
  /// The claim of the view at `index` in the views, from its facts.
  @inline(__always)
  init(_ f: ViewFacts, index: Int, _ view: AnnotationView, columns: Int) {
    self.init(
      order: f.order, index: Int32(index), cell: f.row * Int32(columns) + f.column,
      width: f.width, key: f.clusterKey, slot: f.slot, count: Int(f.count), marks: f.marks,
      view: ObjectIdentifier(view), point: f.point)
  }
}

/// What a clustering pass leaves for the next: the claims of each cluster's members, cluster
/// after cluster (`ClusterSlot.claimsStart`), at a zoom scale. Empty (zoom scale 0) when the
/// next pass must read every cluster's signature: after a selection, which may show a member
/// that is hidden again before that pass without its claim changing.
struct ClusterPass {
  var members: [ClusterClaim] = []
  var zoomScale = 0.0
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
  ///
  /// A group whose members' claims are those its cluster was made or kept from in the last
  /// pass (`ClusterPass`: the same views, slots, counts and marks) keeps its cluster without
  /// its record's signature being read or its members' views written: live targets moving
  /// within their cells leave most groups so. The frame, the clusters kept and the delegate's
  /// calls are those of reading every signature.
  ///
  /// The views are read from their facts (`readFacts`, by their places in `views`); the
  /// members' facts are marked hidden. Returns the places that take part in collisions (a
  /// cluster's view as `~k`, its place in `clusterViews`, whose facts `clusterFacts`
  /// receives), or nil when no cluster formed (all of them).
  func formClusters(
    _ views: [AnnotationView], _ facts: inout [ViewFacts], _ clusterFacts: inout [ViewFacts],
    _ vp: Viewport
  ) -> [Int32]? {
    let columns = vp.columns
    let rowCount = vp.rows
    // The clusterable views on screen with their cells, first added first. (Sorted by the
    // keys' own `<`: a closure written here would be main-actor isolated, and checked to be on
    // the main actor at every comparison.) Each view's facts are read here only: the cells it
    // claims, its identifier and what a signature holds are in its claim.
    // (Room for all of them at once: grown append by append, a screenful of claims was
    // copied a dozen times a pass.)
    var claims: [ClusterClaim] = []
    claims.reserveCapacity(facts.count)
    Self.orderedClaims(views, facts, columns: columns, into: &claims)
    var last = ClusterPass()
    swap(&last, &annotationViews.lastClusterPass)
    let sameZoom = last.zoomScale == vp.zoomScale
    // Which view claimed each cell (-1: none), and each member's first member. Each group's
    // members after its first, in the order they joined, are a list: `firstMember` of the
    // first, then `nextMember` of each.
    let listed = claims.isEmpty ? 0 : views.count
    var owner = [Int32](repeating: -1, count: claims.isEmpty ? 0 : columns * rowCount)
    // The identifier of the claim that owns each cell.
    var ownerKey = [Int32](repeating: -1, count: claims.isEmpty ? 0 : columns * rowCount)
    var headOf = [Int32](repeating: -1, count: listed)
    var firstMember = [Int32](repeating: -1, count: listed)
    var lastMember = [Int32](repeating: -1, count: listed)
    var nextMember = [Int32](repeating: -1, count: listed)
    var memberCount = [Int32](repeating: 0, count: listed)
    // Each view's claim (by its place in the views), for the heads.
    var claimOf = [Int32](repeating: -1, count: listed)
    var heads: [Int32] = []
    for (i, claim) in claims.enumerated() {
      claimOf[Int(claim.index)] = Int32(i)
      let first = Int(claim.cell)
      let end = first + Int(claim.width)
      var head: Int32 = -1
      for k in first..<end where owner[k] >= 0 {
        if ownerKey[k] == claim.key { head = owner[k] }
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
        for k in first..<end where owner[k] < 0 {
          owner[k] = claim.index
          ownerKey[k] = claim.key
        }
      }
    }
    // The clusters by their first member's slot, grown to the index's slots: out of the
    // registry while the kept clusters are tested and the gone ones found (no delegate call
    // comes between), so each read of a slot is not an access of the map's registry checked
    // at run time.
    var clusterSlots: [ClusterSlot] = []
    swap(&clusterSlots, &annotationViews.clusterSlots)
    let slotCapacity = annotationIndex.slotCapacity
    if clusterSlots.count < slotCapacity {
      clusterSlots.append(
        contentsOf: repeatElement(
          ClusterSlot(), count: slotCapacity - clusterSlots.count))
    }
    // This pass's number: a cluster kept carries it (`ClusterSlot.keptPass`), so the clusters
    // gone are told without taking the kept ones out of a list.
    annotationViews.clusterPass &+= 1
    let pass = annotationViews.clusterPass
    // Per group: its cluster's record when kept (by the group's place in `heads`, not hashed
    // again), and whether it is kept with the very same member views (nothing to change in
    // them). A group whose members' claims are those its cluster was last made or kept from
    // is kept with the same views, and its members, hidden then, are left as they are.
    var kept = [ClusterRecord?](repeating: nil, count: heads.count)
    var sameViews = [Bool](repeating: false, count: heads.count)
    var unchanged = [Bool](repeating: false, count: heads.count)
    for (n, h) in heads.enumerated() {
      let claim = claims[Int(claimOf[Int(h)])]
      let slot = Int(claim.slot)
      // (The slot's fields read in place: no retain of the record, which would reach it.)
      guard slot < clusterSlots.count,
        clusterSlots[slot].record != nil,
        clusterSlots[slot].keptPass != pass,
        clusterSlots[slot].headOrder == claim.order
      else { continue }
      let count = Int(memberCount[Int(h)]) + 1
      let claimsStart = Int(clusterSlots[slot].claimsStart)
      if sameZoom && Int(clusterSlots[slot].claimsCount) == count
        && claimsStart + count <= last.members.count
      {
        var same = true
        var m = h
        var k = claimsStart
        while m >= 0 {
          if !ClusterClaim.sameMember(claims[Int(claimOf[Int(m)])], last.members[k]) {
            same = false
            break
          }
          k += 1
          m = m == h ? firstMember[Int(h)] : nextMember[Int(m)]
        }
        if same {
          // Kept as it is: its record is not reached.
          clusterSlots[slot].keptPass = pass
          sameViews[n] = true
          unchanged[n] = true
          continue
        }
      }
      guard let record = clusterSlots[slot].record else { continue }
      let sig = record.signature
      guard sig.zoomScale == vp.zoomScale, sig.members.count == count else { continue }
      var matches = true
      var same = record.memberViews.count == count
      var m = h
      var k = 0
      while m >= 0 {
        let f = facts[Int(m)]
        let member = sig.members[k]
        if member.slot != f.slot || member.count != Int(f.count) || member.marks != f.marks {
          matches = false
          break
        }
        if same {
          let v = views[Int(m)]
          if record.memberViews[k] !== v || !v.isClusterMember { same = false }
        }
        k += 1
        m = m == h ? firstMember[Int(h)] : nextMember[Int(m)]
      }
      guard matches else { continue }
      kept[n] = record
      clusterSlots[slot].keptPass = pass
      sameViews[n] = same
    }
    // The clusters of the last pass not kept (by their slots: the kept ones are not reached).
    // (With their first members' orders from the slots: `view.layoutOrder`, which the pass
    // that kept or made each wrote, without reaching the views.)
    var gone: [ClusterRecord] = []
    var goneOrders: [Int] = []
    for s in annotationViews.clusterHeads
    where clusterSlots[Int(s)].keptPass != pass {
      if let record = clusterSlots[Int(s)].record {
        gone.append(record)
        goneOrders.append(clusterSlots[Int(s)].headOrder)
      }
      clusterSlots[Int(s)] = ClusterSlot()
    }
    swap(&clusterSlots, &annotationViews.clusterSlots)
    // Member views leave the clusters that are gone or changed their views (those kept with
    // the same views keep them).
    for record in gone {
      for m in record.memberViews { m.cluster = nil }
    }
    for n in heads.indices where !sameViews[n] {
      guard let record = kept[n] else { continue }
      for m in record.memberViews { m.cluster = nil }
    }
    for record in Self.inOrder(gone, orders: goneOrders) { dismissCluster(record) }
    // The clusters made and kept (their first members' slots), in the order they formed, and
    // their members' claims.
    var clusterHeads: [Int32] = []
    clusterHeads.reserveCapacity(heads.count)
    var memberClaims: [ClusterClaim] = []
    memberClaims.reserveCapacity(claims.count)
    var clusterViews: [AnnotationView] = []
    clusterViews.reserveCapacity(heads.count)
    // Each head's cluster view's place in `clusterViews`, by the head's place in `views` (read
    // for every view below: an array, not a dictionary hashing each; -1: none).
    var viewOfHead = [Int32](repeating: -1, count: heads.isEmpty ? 0 : views.count)
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
    // The clusters by slot out of the registry again while they are written (no run-time
    // exclusivity check per cluster), back in it while the delegate or a view's code runs.
    swap(&clusterSlots, &annotationViews.clusterSlots)
    for (n, h) in heads.enumerated() {
      // (The head's claim, not its facts: the claims are in the order the heads are, the facts
      // in the views'.)
      let head = claims[Int(claimOf[Int(h)])]
      let slot = Int(head.slot)
      if unchanged[n] {
        // Kept as it was: its view, from the slot; its members' views as they are (hidden, as
        // their facts say).
        let view = clusterSlots[slot].view!
        view.layoutSlot = head.slot
        view.layoutPoint = head.point
        view.layoutOrder = head.order
        view.representedCount = 1
        clusterSlots[slot].claimsStart = Int32(memberClaims.count)
        var m = h
        while m >= 0 {
          memberClaims.append(claims[Int(claimOf[Int(m)])])
          m = m == h ? firstMember[Int(h)] : nextMember[Int(m)]
        }
        clusterHeads.append(Int32(slot))
        viewOfHead[Int(h)] = Int32(clusterViews.count)
        clusterViews.append(view)
        continue
      }
      let record: ClusterRecord
      if let k = kept[n] {
        // The same annotations; their views may be others (one left the screen and came back).
        if sameViews[n] {
          record = k
        } else {
          record = ClusterRecord(
            annotation: k.annotation, view: k.view, memberViews: memberViews[n],
            signature: k.signature, headOrder: k.headOrder)
        }
      } else {
        swap(&clusterSlots, &annotationViews.clusterSlots)
        guard views[Int(h)].annotation != nil else {
          swap(&clusterSlots, &annotationViews.clusterSlots)
          continue
        }
        let memberAnnotations = members[n]
        let cluster =
          delegate?.mapView(self, clusterAnnotationForMemberAnnotations: memberAnnotations)
          ?? ClusterAnnotation(memberAnnotations: memberAnnotations)
        let view = makeView(for: cluster)
        view.prepareForDisplay()
        annotationViews.visible[ObjectIdentifier(cluster)] = view
        swap(&clusterSlots, &annotationViews.clusterSlots)
        var signature: [ClusterRecord.Member] = []
        signature.reserveCapacity(memberViews[n].count)
        for m in memberViews[n] {
          signature.append(
            ClusterRecord.Member(
              slot: m.layoutSlot, count: m.representedCount, marks: m.representedMarks))
        }
        record = ClusterRecord(
          annotation: cluster, view: view, memberViews: memberViews[n],
          signature: ClusterRecord.Signature(members: signature, zoomScale: vp.zoomScale),
          headOrder: head.order)
        added.append(view)
      }
      let view = record.view
      view.layoutSlot = head.slot
      view.layoutPoint = head.point
      view.layoutOrder = head.order
      view.representedCount = 1
      if !sameViews[n] {
        view.clusterMemberCount = max(record.annotation.memberAnnotations.count, 1)
        for m in record.memberViews {
          m.isHidden = true
          m.cluster = view
        }
      } else {
        // (The members of a group unchanged, above, were hidden by the pass its claims are
        // from, and nothing showed them since: a view that shows again is selected, and a
        // selection leaves the next pass no claims to compare.)
        for m in record.memberViews { m.isHidden = true }
      }
      clusterSlots[Int(record.headSlot)] = ClusterSlot(
        record: record, view: view, headOrder: record.headOrder, keptPass: pass,
        claimsStart: Int32(memberClaims.count), claimsCount: memberCount[Int(h)] + 1)
      var m = h
      while m >= 0 {
        memberClaims.append(claims[Int(claimOf[Int(m)])])
        // (Hidden above, as the record's member views: the views of this group.)
        facts[Int(m)].hidden = true
        m = m == h ? firstMember[Int(h)] : nextMember[Int(m)]
      }
      clusterHeads.append(record.headSlot)
      viewOfHead[Int(h)] = Int32(clusterViews.count)
      clusterViews.append(view)
    }
    swap(&clusterSlots, &annotationViews.clusterSlots)
    annotationViews.clusterHeads = clusterHeads
    annotationViews.clusterViews = clusterViews
    annotationViews.lastClusterPass = ClusterPass(members: memberClaims, zoomScale: vp.zoomScale)
    if !added.isEmpty { delegate?.mapView(self, didAdd: added) }
    // The clusters' views as collisions read them (after the delegate heard of the new ones).
    clusterFacts.removeAll(keepingCapacity: true)
    clusterFacts.reserveCapacity(clusterViews.count)
    for v in clusterViews { clusterFacts.append(Self.facts(of: v, vp, clusterable: false)) }
    guard !heads.isEmpty else { return nil }
    // The views that take part in collisions: a cluster's view in its first member's place.
    // Those of them that are not clusters' views are the views on screen that may show (the
    // members are hidden): the frame's markers are looked for among them, not among all.
    var placed: [Int32] = []
    placed.reserveCapacity(views.count)
    var unclustered: [Int32] = []
    unclustered.reserveCapacity(views.count - claims.count + heads.count)
    for n in 0..<views.count {
      let c = viewOfHead[n]
      if c >= 0 {
        placed.append(~c)
      } else if headOf[n] < 0 {
        placed.append(Int32(n))
        unclustered.append(Int32(n))
      }
    }
    annotationViews.unclustered = unclustered
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
    if var log = annotationIndex.takeMemberLog(for: vp) {
      Self.memberSlots(
        of: groups, wanted, cells: cells, log: &log, annotationIndex, vp, into: &out)
      annotationIndex.restoreMemberLog(log)
      return out
    }
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

  /// `memberAnnotations(of:except:_:)` read from the layout's log of the members its walk
  /// counted (`AnnotationIndex.MemberLog`), in the same order as the walks of the index that
  /// function makes otherwise: for a few cells, each view's cell's annotations, its own first,
  /// the others in the walk's order; for many, each group's annotations in the walk's order,
  /// its first view's first.
  static func memberSlots(
    of groups: [[AnnotationView]], _ wanted: [Int], cells: Int,
    log: inout AnnotationIndex.MemberLog, _ index: AnnotationIndex, _ vp: Viewport,
    into out: inout [[any Annotation]]
  ) {
    let screen = vp.columns * vp.rows
    if log.table.count < screen {
      log.table = [Int32](repeating: -1, count: screen)
    }
    // The cells marked in the table (cleared after).
    var marked: [Int] = []
    if cells <= 64 {
      // Each view's cell's place in `lists` (-1: off screen), view after view.
      var places: [Int32] = []
      places.reserveCapacity(cells)
      var lists: [[Int32]] = []
      for n in wanted {
        for v in groups[n] {
          guard let c = vp.cell(for: v.layoutPoint) else {
            places.append(-1)
            continue
          }
          let k = c.row * vp.columns + c.column
          if log.table[k] < 0 {
            log.table[k] = Int32(lists.count)
            lists.append([])
            marked.append(k)
          }
          places.append(log.table[k])
        }
      }
      for e in log.entries {
        let w = log.table[Int(e >> 32)]
        if w >= 0 { lists[Int(w)].append(Int32(truncatingIfNeeded: e)) }
      }
      for k in marked { log.table[k] = -1 }
      var p = 0
      for n in wanted {
        var slots: [Int32] = []
        for v in groups[n] {
          let w = places[p]
          p += 1
          guard w >= 0 else { continue }
          let first = v.layoutSlot
          slots.append(first)
          for s in lists[Int(w)] where s != first { slots.append(s) }
        }
        out[n] = index.annotations(inSlots: slots)
      }
      return
    }
    for n in wanted {
      for v in groups[n] {
        guard let c = vp.cell(for: v.layoutPoint) else { continue }
        let k = c.row * vp.columns + c.column
        if log.table[k] < 0 { marked.append(k) }
        log.table[k] = Int32(n)
      }
    }
    // The members in the cells marked, in the log's order, and how many each group has; then
    // each group's, in that order, in one array (a group's after the group before's).
    var found: [UInt64] = []
    var count = [Int32](repeating: 0, count: groups.count)
    for e in log.entries {
      let g = log.table[Int(e >> 32)]
      guard g >= 0 else { continue }
      found.append(UInt64(UInt32(bitPattern: g)) << 32 | (e & 0xFFFF_FFFF))
      count[Int(g)] += 1
    }
    for k in marked { log.table[k] = -1 }
    var start = [Int32](repeating: 0, count: groups.count)
    var next: Int32 = 0
    for n in wanted {
      start[n] = next
      next += count[n]
    }
    var bySlot = [Int32](repeating: 0, count: found.count)
    var fill = start
    for e in found {
      let g = Int(e >> 32)
      bySlot[Int(fill[g])] = Int32(truncatingIfNeeded: e)
      fill[g] += 1
    }
    for n in wanted {
      let members = bySlot[Int(start[n])..<Int(start[n] + count[n])]
      // The first view's annotation first: the cluster stands where it stands.
      let first = groups[n][0].layoutSlot
      var slots: [Int32] = []
      slots.reserveCapacity(members.count)
      if let i = members.firstIndex(of: first), i > members.startIndex {
        slots.append(first)
        slots.append(contentsOf: members[..<i])
        slots.append(contentsOf: members[(i + 1)...])
      } else {
        slots.append(contentsOf: members)
      }
      out[n] = index.annotations(inSlots: slots)
    }
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
  static func inOrder(_ records: [ClusterRecord]) -> [ClusterRecord] {
    var orders: [Int] = []
    orders.reserveCapacity(records.count)
    for r in records { orders.append(r.view.layoutOrder) }
    return inOrder(records, orders: orders)
  }

  /// Clusters in the order of their first members' orders of addition, given (`orders[k]`
  /// is `records[k].view.layoutOrder`).
  static func inOrder(_ records: [ClusterRecord], orders: [Int]) -> [ClusterRecord] {
    guard records.count > 1 else { return records }
    var keys: [OrderKey] = []
    keys.reserveCapacity(records.count)
    for (k, order) in orders.enumerated() { keys.append(OrderKey(order: order, index: k)) }
    keys.sort()
    var out: [ClusterRecord] = []
    out.reserveCapacity(records.count)
    for k in keys { out.append(records[k.index]) }
    return out
  }

  /// Takes every cluster off the map.
  func dismissAllClusters() {
    var list: [ClusterRecord] = []
    for s in annotationViews.clusterHeads {
      if let r = annotationViews.clusterSlots[Int(s)].record { list.append(r) }
      annotationViews.clusterSlots[Int(s)] = ClusterSlot()
    }
    let records = Self.inOrder(list)
    annotationViews.clusterHeads = []
    annotationViews.clusterViews = []
    annotationViews.lastClusterPass = ClusterPass()
    for record in records {
      for m in record.memberViews { m.cluster = nil }
      dismissCluster(record)
    }
  }

  /// The claims of the views that may cluster and have a marker's cell (`ViewFacts.clusterKey`
  /// and `column`), by their order of addition (each view's is its own: no two are the same).
  ///
  /// When the orders lie within sixteen times as many as the claims, the views are placed in a
  /// table by order and their claims made reading it through, not compared (a screenful of
  /// live targets: thousands of claims, whose sort's comparisons were a tenth of the pass), nor
  /// made first and copied into their order; otherwise (and for 64 claims or fewer) the claims
  /// are made and sorted.
  static func orderedClaims(
    _ views: [AnnotationView], _ facts: [ViewFacts], columns: Int,
    into claims: inout [ClusterClaim]
  ) {
    var lowest = Int.max
    var highest = Int.min
    var count = 0
    for f in facts where f.clusterKey >= 0 && f.column >= 0 {
      lowest = min(lowest, f.order)
      highest = max(highest, f.order)
      count += 1
    }
    if count > 64 && highest - lowest < 16 * count {
      var place = [Int32](repeating: -1, count: highest - lowest + 1)
      var placed = true
      for n in facts.indices {
        let f = facts[n]
        guard f.clusterKey >= 0 && f.column >= 0 else { continue }
        // Two views of one order (never, with a view per annotation) are sorted.
        guard place[f.order - lowest] < 0 else {
          placed = false
          break
        }
        place[f.order - lowest] = Int32(n)
      }
      if placed {
        for p in place where p >= 0 {
          claims.append(ClusterClaim(facts[Int(p)], index: Int(p), views[Int(p)], columns: columns))
        }
        return
      }
    }
    for n in facts.indices {
      let f = facts[n]
      guard f.clusterKey >= 0 && f.column >= 0 else { continue }
      claims.append(ClusterClaim(f, index: n, views[n], columns: columns))
    }
    claims.sort()
  }
}
