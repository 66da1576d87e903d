import DotRaster
import MapGeometry
import Synchronization

/// A point of interest shown as a marker (MKAnnotation).
public protocol Annotation: AnyObject {
  /// Where the annotation stands on the map.
  var coordinate: Coordinate { get }
  /// The marker's label and the callout's first line (nil: no callout).
  var title: String? { get }
  /// The callout's second line.
  var subtitle: String? { get }
  /// Further lines for the callout (description, elevation, time, properties).
  var detailLines: [String] { get }
}

extension Annotation {
  /// No title.
  public var title: String? { nil }
  /// No subtitle.
  public var subtitle: String? { nil }
  public var detailLines: [String] { [] }
}

/// An annotation whose coordinate can be set: what dragging its marker needs (MapKit asks a
/// draggable annotation for `setCoordinate(_:)`). The map sets `coordinate` when a drag ends
/// and re-indexes the annotation itself.
public protocol MovableAnnotation: Annotation {
  /// Where the annotation stands; the map sets it when the annotation's marker is dropped.
  var coordinate: Coordinate { get set }
}

/// A plain annotation with settable fields (MKPointAnnotation). After changing `coordinate` of
/// an annotation on a map, call `MapView.annotationDidMove(_:)` so the map re-indexes it.
///
/// It is `Sendable` (checked: its fields live in a `Mutex`), so content read from files can be
/// handed between tasks and drawn by a `MapSnapshotter` off the main actor.
public final class PointAnnotation: MovableAnnotation, Sendable {
  private struct Fields: Sendable {
    var coordinate: Coordinate
    var title: String?
    var subtitle: String?
    var detailLines: [String]
    var geoJSONProperties: (@Sendable () -> String)?
    var geoJSONID: String?
  }
  private let fields: Mutex<Fields>

  /// Where the marker stands.
  public var coordinate: Coordinate {
    get { fields.withLock { $0.coordinate } }
    set { fields.withLock { $0.coordinate = newValue } }
  }
  /// The marker's label and the callout's first line.
  public var title: String? {
    get { fields.withLock { $0.title } }
    set { fields.withLock { $0.title = newValue } }
  }
  /// The callout's second line.
  public var subtitle: String? {
    get { fields.withLock { $0.subtitle } }
    set { fields.withLock { $0.subtitle = newValue } }
  }
  /// Further callout lines (description, elevation, time, properties).
  public var detailLines: [String] {
    get { fields.withLock { $0.detailLines } }
    set { fields.withLock { $0.detailLines = newValue } }
  }

  /// The properties of its GeoJSON Feature as the text of a JSON object (one line), as the
  /// file it came from had them; nil: `name` and `description` from the title and subtitle.
  public var geoJSONProperties: String? {
    get {
      let make = fields.withLock { $0.geoJSONProperties }
      return make?()
    }
    set {
      var make: (@Sendable () -> String)?
      if let text = newValue { make = { text } }
      fields.withLock { $0.geoJSONProperties = make }
    }
  }

  /// Sets ``geoJSONProperties`` to text made only when it is asked for (a reader of many
  /// points then spends nothing on the properties of those never picked).
  public func setGeoJSONProperties(_ make: @escaping @Sendable () -> String) {
    fields.withLock { $0.geoJSONProperties = make }
  }
  /// The Feature's `id` as JSON text (a string in quotes or a number); nil: none.
  public var geoJSONID: String? {
    get { fields.withLock { $0.geoJSONID } }
    set { fields.withLock { $0.geoJSONID = newValue } }
  }

  /// An annotation at a coordinate, with optional callout text.
  public init(
    coordinate: Coordinate, title: String? = nil, subtitle: String? = nil,
    detailLines: [String] = []
  ) {
    fields = Mutex(
      Fields(
        coordinate: coordinate, title: title, subtitle: subtitle, detailLines: detailLines,
        geoJSONProperties: nil, geoJSONID: nil))
  }
}

extension PointAnnotation: GeoJSONFeatureProviding {
  /// A Point at the annotation's coordinate now (where a drag left it), with
  /// ``geoJSONProperties`` or else its title and subtitle as `name` and `description`.
  public var geoJSONFeature: String {
    let f = fields.withLock { $0 }
    var properties = f.geoJSONProperties?()
    if properties == nil {
      var members: [(key: String, value: String)] = []
      if let t = f.title { members.append(("name", GeoJSONText.string(t))) }
      if let s = f.subtitle { members.append(("description", GeoJSONText.string(s))) }
      properties = GeoJSONText.object(members)
    }
    return GeoJSONText.pointFeature(
      coordinate: f.coordinate, properties: properties ?? "{}", id: f.geoJSONID)
  }
}

/// How strongly a view claims its place when views collide (MKFeatureDisplayPriority).
public struct DisplayPriority: Hashable, Comparable, Sendable {
  /// The priority, 0 to 1000.
  public var rawValue: Float
  /// A priority, clamped to 0...1000.
  public init(_ rawValue: Float) { self.rawValue = min(max(rawValue, 0), 1000) }
  /// Always shown: never hidden by a collision.
  public static let required = DisplayPriority(1000)
  /// Wins collisions against default-low views.
  public static let defaultHigh = DisplayPriority(750)
  /// Gives way in collisions (the standard marker's priority).
  public static let defaultLow = DisplayPriority(250)
  public static func < (a: DisplayPriority, b: DisplayPriority) -> Bool { a.rawValue < b.rawValue }
}

/// The shape a view claims when collisions are resolved.
public enum CollisionMode: Sendable {
  /// The marker and its label.
  case rectangle
  /// The marker cell only.
  case circle
  /// Never hidden by collisions and never hides others.
  case none
}

/// A control or decoration at the side of a callout. Only controls send
/// `calloutAccessoryControlTapped` to the delegate.
public struct CalloutAccessory: Sendable, Equatable {
  /// The character shown.
  public var symbol: String
  /// Whether tapping it tells the delegate (a control) or it only decorates.
  public var isControl: Bool
  /// An accessory showing a symbol.
  public init(symbol: String, isControl: Bool) {
    self.symbol = symbol
    self.isControl = isControl
  }
  /// The standard "more" button: a control.
  public static let detailDisclosure = CalloutAccessory(symbol: "›", isControl: true)
}

/// The marker shown for an annotation: a glyph cell, a colour and an optional label
/// (MKAnnotationView). Views are reused through the map view's queue.
///
/// Properties marked `@exclusivity(unchecked)` hold plain values (integers, floats, flags,
/// enums without payloads that hold references, a colour as an integer): the map view reads
/// them for thousands of views each frame, and Swift's run-time exclusivity check cost more than
/// the reads. Unchecked is safe here: the view is main-actor isolated, so accesses never run at
/// once on two threads, and an overlapping access on the main thread (a read inside a
/// modification of the same property) can only see the old or the new value of a type without
/// references — there is no buffer to free or reallocate under it. Strings, characters and
/// optionals holding references keep the check.
@MainActor
open class AnnotationView {
  // Declared hot first: a layout reads these for every view on screen (a dense screen has
  // thousands, read several times a frame), and together they fill the object's first cache
  // lines; scattered, they cost more in cache misses than in instructions.

  // Kept by the map view's layout (MapView+Annotations.swift).
  /// The annotation's slot in the map's index while the view is on screen (-1: not on screen).
  @exclusivity(unchecked) var layoutSlot: Int32 = -1
  /// The layout pass that last found the annotation on screen.
  @exclusivity(unchecked) var layoutStamp: UInt32 = 0
  /// The annotation's map point when the layout last found it (the index's copy).
  @exclusivity(unchecked) var layoutPoint = MapPoint(x: 0, y: 0)
  /// The annotation's place in the order annotations were added (ties in collisions).
  @exclusivity(unchecked) var layoutOrder = 0
  /// `label`'s width when it was last measured (`measuredLabel`).
  @exclusivity(unchecked) var measuredLabelWidth = 0
  /// Whether `measuredLabel` is a label that is not empty (read for every view on screen
  /// each frame without reaching the string).
  @exclusivity(unchecked) var measuredLabelNamed = false
  /// `clusteringIdentifier` as a small number (-1: none), read by the collision pass.
  @exclusivity(unchecked) var clusterKey: Int32 = -1
  /// Whether the map is dragging this view's marker (it always shows, and is never clustered).
  @exclusivity(unchecked) var isBeingDragged = false
  /// For a cluster's view, how many annotations the cluster holds (0 for other views).
  @exclusivity(unchecked) var clusterMemberCount = 0
  /// The marks of the annotations `representedCount` counts, combined
  /// (`AnnotationIndex.Representative.marks`): a cluster is kept while its views' are the same.
  @exclusivity(unchecked) var representedMarks: UInt64 = 0

  /// Whether the view is selected (its marker reversed, its callout shown).
  @exclusivity(unchecked) public internal(set) var isSelected = false
  /// True when a view of higher priority took this view's place.
  @exclusivity(unchecked) public internal(set) var isHidden = false
  /// The cells the view claims when collisions are resolved.
  @exclusivity(unchecked) open var collisionMode = CollisionMode.rectangle
  /// How strongly the view keeps its place when views collide.
  @exclusivity(unchecked) open var displayPriority = DisplayPriority.required
  /// The drawing order among markers (higher is drawn on top).
  @exclusivity(unchecked) open var zPriority: Float = StandardMarker.zPriority
  /// The drawing order while the view is selected.
  @exclusivity(unchecked) open var selectedZPriority: Float = 1000
  /// How many annotations this view stands for (more than 1 when nearby ones share its cell).
  @exclusivity(unchecked) public internal(set) var representedCount = 1
  /// Annotations whose views collided with this one and were hidden: counted in its `+N`.
  @exclusivity(unchecked) public internal(set) var collidedCount = 0
  /// Cells to move the marker from the coordinate's cell (right and down positive).
  @exclusivity(unchecked) open var centerOffset: (columns: Int, rows: Int) = (0, 0)
  /// The marker's colour (and the callout title's).
  @exclusivity(unchecked) open var color: TermColor = StandardMarker.color
  /// A short label drawn right of the marker. The map reads it again when it is set (each
  /// frame reads the width and text it measured then).
  open var label: String? {
    didSet { labelSet = true }
  }
  /// `label` when its width was last measured.
  ///
  /// Unchecked, though a string: it is the map's own copy (internal), only ever assigned
  /// whole (`MapView.measuredLabelWidth`) and read whole, never passed `inout` nor modified
  /// in place, so no access to it can begin while another is under way (and the view is
  /// main-actor isolated: never on two threads at once).
  @exclusivity(unchecked) var measuredLabel: String?
  /// Whether `label` was set since the map last measured it (`MapView.measuredLabelWidth`).
  @exclusivity(unchecked) var labelSet = true
  /// The marker character. The map reads it again when it is set.
  open var glyph: Character = StandardMarker.glyph {
    didSet { glyphsSet = true }
  }
  /// The marker character when the screen shows ASCII only. The map reads it again when it
  /// is set.
  open var asciiGlyph: Character = StandardMarker.asciiGlyph {
    didSet { glyphsSet = true }
  }
  /// Whether `glyph` or `asciiGlyph` was set since the map last read them
  /// (`MapView.drawnGlyphs`).
  @exclusivity(unchecked) var glyphsSet = true
  /// `glyph` and `asciiGlyph` as drawn (`MarkerPlacement.drawnScalar`) and whether each is a
  /// wide glyph (`CellBuffer.notesWideGlyph`), when the map last read them.
  @exclusivity(unchecked) var drawnGlyph: Unicode.Scalar = "*"
  @exclusivity(unchecked) var drawnAsciiGlyph: Unicode.Scalar = "*"
  @exclusivity(unchecked) var drawnGlyphWide = false
  @exclusivity(unchecked) var drawnAsciiGlyphWide = false

  /// The annotation shown; nil while the view waits in the reuse queue.
  public internal(set) var annotation: (any Annotation)?
  /// The reuse queue the view returns to (nil: not reused).
  public let reuseIdentifier: String?
  /// Cells to move the callout from its place beside the marker.
  open var calloutOffset: (columns: Int, rows: Int) = (0, 0)
  /// Whether selecting the view shows its annotation's callout.
  open var canShowCallout = true
  /// Whether the view can be selected.
  open var isEnabled = true
  /// The accessory at the callout's right (a control reaches the delegate when tapped).
  open var rightCalloutAccessory: CalloutAccessory?
  /// Count of `prepareForReuse` calls (useful to see reuse happen).
  public private(set) var reuseCount = 0

  // MARK: Clustering

  /// Views with the same identifier whose markers collide are replaced by one cluster view,
  /// showing a `ClusterAnnotation` that holds their annotations
  /// (MKAnnotationView.clusteringIdentifier). Nil (the default): never clustered. A view that
  /// always shows — `.required` priority, collision mode `.none`, selected, or being dragged —
  /// is never clustered.
  public var clusteringIdentifier: String? {
    didSet { clusterKey = ClusteringKeys.key(for: clusteringIdentifier) }
  }
  /// The view of the cluster this view is part of while it is (the view itself is hidden then).
  ///
  /// (Held strongly, not weakly: the map sets it back to nil when the cluster goes, when its
  /// members change and when this view leaves the screen, so it never keeps a cluster view
  /// the map has let go. A weak reference gave every cluster view a side table, and each
  /// retain and release of one, several a frame for every cluster on screen, took the slow
  /// path.)
  public internal(set) var cluster: AnnotationView? {
    didSet { isClusterMember = cluster != nil }
  }
  /// Whether `cluster` was last set to a view (read without loading the weak reference: a
  /// clustering pass that keeps a cluster with the same member views leaves them as they are).
  @exclusivity(unchecked) var isClusterMember = false

  // MARK: Dragging

  /// The stages of dragging a marker (MKAnnotationView.DragState).
  public enum DragState: Sendable, Equatable {
    /// Not being dragged.
    case none
    /// A drag begins (the map sets this; the view moves on to `dragging`).
    case starting
    /// The marker follows the pointer or the keys.
    case dragging
    /// The drag was cancelled (the map sets this; the view moves on to `none`); the annotation
    /// keeps its coordinate.
    case canceling
    /// The marker was dropped (the map sets this after setting the annotation's coordinate; the
    /// view moves on to `none`).
    case ending
  }
  /// Whether the marker can be dragged: `MapView.beginDrag(atColumn:row:)` and
  /// `MapView.beginDrag(of:)` drag it when its annotation is a `MovableAnnotation`.
  open var isDraggable = false
  /// Where a drag of this view stands. The map's delegate hears every change
  /// (`mapView(_:annotationView:didChange:fromOldState:)`), whoever makes it.
  public var dragState = DragState.none {
    didSet {
      if dragState != oldValue {
        dragObserver?.annotationView(self, dragStateDidChangeFrom: oldValue)
      }
    }
  }
  /// The map dragging this view, told of changes of `dragState`.
  weak var dragObserver: MapView?

  /// Moves the drag on (the map calls this with `.starting`, `.ending` and `.canceling`). The
  /// standard view moves on at once, as MapKit's does: from `.starting` to `.dragging`, from
  /// `.ending` and `.canceling` to `.none`. An override that moves on later sets `dragState`
  /// itself.
  open func setDragState(_ newState: DragState, animated: Bool) {
    dragState = newState
    switch newState {
    case .starting: dragState = .dragging
    case .ending, .canceling: dragState = .none
    case .none, .dragging: break
    }
  }

  /// The marker's label as drawn: `label`, and `+N` for the other annotations it stands for.
  public var displayedLabel: String {
    let others = representedCount - 1 + collidedCount
    let base = label ?? ""
    guard others > 0 else { return base }
    return base + (base.isEmpty ? "" : " ") + "+" + String(others)
  }

  /// A view for an annotation (nil while queued for reuse) and its reuse identifier.
  public required init(annotation: (any Annotation)?, reuseIdentifier: String?) {
    self.annotation = annotation
    self.reuseIdentifier = reuseIdentifier
  }

  /// Called when the view is taken from the reuse queue; subclasses call super.
  open func prepareForReuse() {
    reuseCount += 1
    isSelected = false
    isHidden = false
    representedCount = 1
    collidedCount = 0
  }

  /// Called just before the view is shown.
  open func prepareForDisplay() {}

  /// Selects or deselects the view (the map view calls this).
  open func setSelected(_ selected: Bool, animated: Bool) {
    isSelected = selected
  }
}

/// How the standard marker (`MarkerAnnotationView`) looks, for code that draws markers without
/// views (`MapSnapshotter`).
enum StandardMarker {
  static let glyph: Character = "●"
  static let asciiGlyph: Character = "@"
  static let color = TermColor.brightYellow
  static let zPriority: Float = 500
  static let displayPriority = DisplayPriority.defaultLow
  /// The standard cluster marker's glyph (its label is the count of members).
  static let clusterGlyph: Character = "◉"
  static let asciiClusterGlyph: Character = "#"
}

/// A marker that labels itself with its annotation's title (MKMarkerAnnotationView). Its
/// default priority is low, so dense markers give way to each other.
@MainActor
open class MarkerAnnotationView: AnnotationView {
  /// Whether the title shows as a label next to the marker.
  open var titleVisible = true

  /// A standard marker for an annotation (low display priority, a detail button).
  public required init(annotation: (any Annotation)?, reuseIdentifier: String?) {
    super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    displayPriority = StandardMarker.displayPriority
    rightCalloutAccessory = .detailDisclosure
  }

  open override func prepareForDisplay() {
    super.prepareForDisplay()
    label = titleVisible ? annotation?.title : nil
  }
}

/// An annotation that makes its own standard view (as `DefaultRendering` overlays make their
/// renderer), so a new kind of annotation needs no change to the map: the map asks it when the
/// delegate gives no view, and names no kind of annotation.
public protocol DefaultAnnotationViewProviding: Annotation {
  /// A new view for this annotation.
  @MainActor func makeDefaultAnnotationView() -> AnnotationView
}
