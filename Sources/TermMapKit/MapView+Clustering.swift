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
  /// annotation whose marker held its place (the cluster stands there), then the annotations
  /// that shared its cell, then the other views' annotations, first added first.
  public let memberAnnotations: [any Annotation]
  /// The first member's coordinate.
  public let coordinate: Coordinate
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
    coordinate = first?.coordinate ?? Coordinate(latitude: 0, longitude: 0)
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
@MainActor
struct ClusterRecord {
  let annotation: ClusterAnnotation
  let view: AnnotationView
  /// The member views, the one that held its place first.
  let memberViews: [AnnotationView]
  let signature: Signature

  /// The member views with the counts they stood for, at a zoom scale and a state of the index:
  /// the same signature means the same members (the viewport's cells keep their place in the
  /// world while it pans).
  struct Signature: Equatable {
    let views: [ObjectIdentifier]
    let counts: [Int]
    let zoomScale: Double
    let generation: Int
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

  /// Replaces each group of collided views with one identifier by a cluster: a view hidden by
  /// a collision joins the cluster of the view it collided with when both are clusterable and
  /// share the identifier. `views` are the views placed in the collision pass, in its order, and
  /// `outcomes` its results (hidden views' counts still in their winner's `collidedCount`).
  /// Clusters with the same members as before are kept; the rest are made anew (the delegate
  /// hears `clusterAnnotationForMemberAnnotations`, `viewFor` and `didAdd`), after the ones
  /// gone are dismissed (deselected first when selected).
  func formClusters(
    _ views: [AnnotationView], _ outcomes: [MarkerCandidate.Outcome], _ vp: Viewport
  ) {
    // The groups: the winner's place in `views`, with its members' places.
    var heads: [Int] = []
    var membersOf: [Int: [Int]] = [:]
    for (n, o) in outcomes.enumerated() where o.isHidden && o.collidedWith >= 0 {
      let v = views[n]
      let w = Int(o.collidedWith)
      let head = views[w]
      guard v.clusterKey >= 0, v.clusterKey == head.clusterKey, isClusterable(v),
        isClusterable(head)
      else { continue }
      if membersOf[w] == nil { heads.append(w) }
      membersOf[w, default: []].append(n)
    }
    heads.sort()
    // Every member's count moves from its winner's `+N` into the cluster.
    var groups:
      [(head: AnnotationView, members: [AnnotationView], signature: ClusterRecord.Signature)] = []
    groups.reserveCapacity(heads.count)
    for h in heads {
      let head = views[h]
      var members = membersOf[h]!.map { views[$0] }
      members.sort { $0.layoutOrder < $1.layoutOrder }
      for m in members { head.collidedCount -= m.representedCount }
      let all = [head] + members
      groups.append(
        (
          head, members,
          ClusterRecord.Signature(
            views: all.map { ObjectIdentifier($0) }, counts: all.map(\.representedCount),
            zoomScale: vp.zoomScale, generation: annotationIndex.generation)
        ))
    }
    // The clusters kept, and those gone.
    var old = annotationViews.clusters
    for record in old.values {
      for m in record.memberViews { m.cluster = nil }
    }
    var kept: [ObjectIdentifier: ClusterRecord] = [:]
    for g in groups {
      guard let a = g.head.annotation else { continue }
      let key = ObjectIdentifier(a)
      if let record = old[key], record.signature == g.signature {
        kept[key] = record
        old[key] = nil
      }
    }
    for record in old.values.sorted(by: { $0.view.layoutOrder < $1.view.layoutOrder }) {
      dismissCluster(record)
    }
    // The clusters made and kept, in the order of their winners.
    var clusters: [ObjectIdentifier: ClusterRecord] = [:]
    var clusterViews: [AnnotationView] = []
    var added: [AnnotationView] = []
    for g in groups {
      guard let headAnnotation = g.head.annotation else { continue }
      let key = ObjectIdentifier(headAnnotation)
      let record: ClusterRecord
      if let k = kept[key] {
        record = k
      } else {
        var memberAnnotations: [any Annotation] = []
        for v in [g.head] + g.members {
          guard v.layoutSlot >= 0, let c = vp.cell(for: v.layoutPoint) else { continue }
          memberAnnotations += annotationIndex.members(
            ofCell: c.column, row: c.row, first: v.layoutSlot, viewport: vp)
        }
        let cluster =
          delegate?.mapView(self, clusterAnnotationForMemberAnnotations: memberAnnotations)
          ?? ClusterAnnotation(memberAnnotations: memberAnnotations)
        let view = makeView(for: cluster)
        view.prepareForDisplay()
        annotationViews.visible[ObjectIdentifier(cluster)] = view
        record = ClusterRecord(
          annotation: cluster, view: view, memberViews: [g.head] + g.members,
          signature: g.signature)
        added.append(view)
      }
      let view = record.view
      view.layoutPoint = g.head.layoutPoint
      view.layoutOrder = g.head.layoutOrder
      view.representedCount = 1
      view.collidedCount = g.head.collidedCount
      view.isHidden = false
      for m in record.memberViews {
        m.isHidden = true
        m.cluster = view
      }
      clusters[key] = record
      clusterViews.append(view)
    }
    annotationViews.clusters = clusters
    annotationViews.clusterViews = clusterViews
    if !added.isEmpty { delegate?.mapView(self, didAdd: added) }
  }

  /// Takes a cluster off the map: deselected (the delegate hears it) when selected, its view
  /// to the reuse queue.
  func dismissCluster(_ record: ClusterRecord) {
    if let s = annotationViews.selected, s === record.annotation {
      deselectAnnotation(s, animated: false)
    }
    annotationViews.visible[ObjectIdentifier(record.annotation)] = nil
    enqueue(record.view)
  }

  /// Takes every cluster off the map.
  func dismissAllClusters() {
    let records = annotationViews.clusters.values.sorted {
      $0.view.layoutOrder < $1.view.layoutOrder
    }
    annotationViews.clusters = [:]
    annotationViews.clusterViews = []
    for record in records {
      for m in record.memberViews { m.cluster = nil }
      dismissCluster(record)
    }
  }
}
