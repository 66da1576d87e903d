import Foundation

/// What an expression reads from the feature it is evaluated for: a class, so a renderer reuses
/// one object for every feature and passing it costs a retain, not a copy.
///
/// Property keys are resolved to slots when the expression is compiled (`PropertyKeys`); a
/// renderer maps each slot to its tile layer's key index once per layer and answers
/// `value(slot:)` by index, so evaluation never walks a dictionary per feature.
public protocol StyleFeature: AnyObject {
  /// The value of the property in `slot` of the compiling `PropertyKeys`, or nil when the
  /// feature does not have it.
  func value(slot: Int) -> StyleValue?
  /// The value of a property named at evaluation time (`["get", ["concat", …]]`), or nil.
  func value(forKey key: String) -> StyleValue?
  /// All properties (`["properties"]`).
  var properties: StyleObject { get }
  /// `Point`, `LineString`, `Polygon` (or the GeoJSON type name), nil when unknown.
  var geometryType: String? { get }
  /// The feature id, `.null` when it has none.
  var id: StyleValue { get }
  /// The geometry as a GeoJSON geometry object in longitude and latitude, for `within` and
  /// `distance`; nil when not available.
  var geometry: StyleValue? { get }
}

extension StyleFeature {
  /// No geometry by default.
  public var geometry: StyleValue? { nil }
}

/// An error while evaluating: MapLibre's message and the key path of the sub-expression
/// that raised it (`[1][2]`).
public struct ExpressionRuntimeError: Error, Sendable, Equatable {
  /// The message, as MapLibre words it.
  public let message: String
  /// The path of the failing sub-expression inside the expression (`""` for the root).
  public let path: String
}

typealias EvalResult = StyleValue

struct EvalContext {
  var zoom: Double?
  var feature: (any StyleFeature)?
}

/// Compound operators (MapLibre's `CompoundExpression` definitions and the legacy filter
/// operators).
enum Op: Sendable {
  case error, typeOf, toRGBA, rgb, rgba, get, getFrom, has, hasIn, featureState, properties,
    geometryType, id, zoom, heatmapDensity, lineProgress, accumulated, elevation
  case plus, times, minus, negate, divide, mod, ln2, pi, e, pow, sqrt, log10, ln, log2, sin, cos,
    tan, asin, acos, atan, min, max, abs, round, floor, ceil
  case all2, allN, any2, anyN, not, isSupportedScript, upcase, downcase, concat, split, join
  case filterEq, filterIdEq, filterTypeEq, filterLt, filterIdLt, filterGt, filterIdGt, filterLe,
    filterIdLe, filterGe, filterIdGe, filterHas, filterHasId, filterTypeIn, filterIdIn,
    filterInSmall, filterInLarge
}

enum CompareOp: String, Sendable {
  case eq = "==", ne = "!=", lt = "<", gt = ">", le = "<=", ge = ">="
  var isOrder: Bool { self != .eq && self != .ne }
}

enum Curve: Sendable, Equatable {
  case linear
  case exponential(Double)
  case cubicBezier(Double, Double, Double, Double)
}

enum ColorSpace: Sendable { case rgb, hcl, lab }

struct FormatSectionNode: Sendable {
  var content: Node
  var scale: Node?
  var font: Node?
  var textColor: Node?
  var verticalAlign: Node?
}

/// A parsed, type-checked expression node. Immutable; compared by identity where MapLibre
/// does (zoom curves).
final class Node: Sendable {
  indirect enum Kind: Sendable {
    case literal(StyleValue)
    /// `["get", "key"]` with a constant key: the key's slot.
    case property(slot: Int, key: String)
    /// `["has", "key"]` with a constant key.
    case hasProperty(slot: Int, key: String)
    case call(Op, [Node])
    case assertion([Node])
    case coercion([Node])
    case compare(CompareOp, Node, Node)
    case caseOf([(Node, Node)], Node)
    case match(
      input: Node, strings: [String: Int], numbers: [Double: Int], outputs: [Node], otherwise: Node)
    case coalesce([Node])
    case step(input: Node, labels: [Double], outputs: [Node])
    case interpolate(ColorSpace, Curve, input: Node, labels: [Double], outputs: [Node])
    case letIn(bindings: [Node], result: Node)
    case variable(String, Node)
    case at(Node, Node)
    case inOp(Node, Node)
    case indexOf(Node, Node, Node?)
    case slice(Node, Node, Node?)
    case length(Node)
    case format([FormatSectionNode])
    case numberFormat(
      Node, locale: Node?, currency: Node?, unit: Node?, minDigits: Node?, maxDigits: Node?)
    case semiliteral([Node])
    case within(GeoShape)
    case distance(GeoShape)
  }

  let kind: Kind
  let type: ExpressionType
  /// The key path for runtime errors.
  let path: String

  init(_ kind: Kind, _ type: ExpressionType, path: String = "") {
    self.kind = kind
    self.type = type
    self.path = path
  }

  var isLiteral: Bool {
    if case .literal = kind { return true }
    return false
  }

  var literalValue: StyleValue? {
    if case .literal(let v) = kind { return v }
    return nil
  }

  /// The children MapLibre's `eachChild` visits (a `var` has none).
  var children: [Node] {
    switch kind {
    case .literal, .property, .hasProperty, .variable, .within, .distance: return []
    case .call(_, let a), .assertion(let a), .coercion(let a), .coalesce(let a),
      .semiliteral(let a):
      return a
    case .compare(_, let l, let r): return [l, r]
    case .caseOf(let branches, let otherwise):
      return branches.flatMap { [$0.0, $0.1] } + [otherwise]
    case .match(let input, _, _, let outputs, let otherwise): return [input] + outputs + [otherwise]
    case .step(let input, _, let outputs): return [input] + outputs
    case .interpolate(_, _, let input, _, let outputs): return [input] + outputs
    case .letIn(let bindings, let result): return bindings + [result]
    case .at(let a, let b), .inOp(let a, let b): return [a, b]
    case .indexOf(let a, let b, let c), .slice(let a, let b, let c):
      return [a, b] + (c.map { [$0] } ?? [])
    case .length(let a): return [a]
    case .format(let sections):
      return sections.flatMap { s in
        [s.content] + [s.scale, s.font, s.textColor, s.verticalAlign].compactMap { $0 }
      }
    case .numberFormat(let n, let a, let b, let c, let d, let e):
      return [n] + [a, b, c, d, e].compactMap { $0 }
    }
  }

  /// A copy with `transform` applied to each child (and variables' bound expressions).
  func mapChildren(_ f: (Node) -> Node) -> Node {
    let k: Kind
    switch kind {
    case .literal, .property, .hasProperty, .within, .distance: return self
    case .variable(let name, let bound): k = .variable(name, f(bound))
    case .call(let op, let a): k = .call(op, a.map(f))
    case .assertion(let a): k = .assertion(a.map(f))
    case .coercion(let a): k = .coercion(a.map(f))
    case .coalesce(let a): k = .coalesce(a.map(f))
    case .semiliteral(let a): k = .semiliteral(a.map(f))
    case .compare(let op, let l, let r): k = .compare(op, f(l), f(r))
    case .caseOf(let branches, let otherwise):
      k = .caseOf(branches.map { (f($0.0), f($0.1)) }, f(otherwise))
    case .match(let input, let s, let n, let outputs, let otherwise):
      k = .match(
        input: f(input), strings: s, numbers: n, outputs: outputs.map(f), otherwise: f(otherwise))
    case .step(let input, let labels, let outputs):
      k = .step(input: f(input), labels: labels, outputs: outputs.map(f))
    case .interpolate(let space, let curve, let input, let labels, let outputs):
      k = .interpolate(space, curve, input: f(input), labels: labels, outputs: outputs.map(f))
    case .letIn(let bindings, let result): k = .letIn(bindings: bindings.map(f), result: f(result))
    case .at(let a, let b): k = .at(f(a), f(b))
    case .inOp(let a, let b): k = .inOp(f(a), f(b))
    case .indexOf(let a, let b, let c): k = .indexOf(f(a), f(b), c.map(f))
    case .slice(let a, let b, let c): k = .slice(f(a), f(b), c.map(f))
    case .length(let a): k = .length(f(a))
    case .format(let sections):
      k = .format(
        sections.map { s in
          FormatSectionNode(
            content: f(s.content), scale: s.scale.map(f), font: s.font.map(f),
            textColor: s.textColor.map(f), verticalAlign: s.verticalAlign.map(f))
        })
    case .numberFormat(let n, let a, let b, let c, let d, let e):
      k = .numberFormat(
        f(n), locale: a.map(f), currency: b.map(f), unit: c.map(f), minDigits: d.map(f),
        maxDigits: e.map(f))
    }
    return Node(k, type, path: path)
  }

  // MARK: dependencies

  /// Whether the node reads nothing from the feature (MapLibre's `isFeatureConstant`).
  var isFeatureConstant: Bool {
    switch kind {
    case .property, .hasProperty, .within, .distance: return false
    case .call(let op, let args):
      switch op {
      case .get, .has, .featureState, .properties, .geometryType, .id, .filterEq, .filterIdEq,
        .filterTypeEq, .filterLt, .filterIdLt, .filterGt, .filterIdGt, .filterLe, .filterIdLe,
        .filterGe, .filterIdGe, .filterHas, .filterHasId, .filterTypeIn, .filterIdIn,
        .filterInSmall, .filterInLarge:
        return false
      default: return args.allSatisfy(\.isFeatureConstant)
      }
    default: return children.allSatisfy(\.isFeatureConstant)
    }
  }

  /// Whether the node does not use any of the global inputs (zoom and the GPU-side ones).
  func isGlobalConstant(zoomOnly: Bool) -> Bool {
    if case .call(let op, _) = kind {
      switch op {
      case .zoom: return false
      case .heatmapDensity, .lineProgress, .accumulated, .elevation, .isSupportedScript:
        if !zoomOnly { return false }
      default: break
      }
    }
    return children.allSatisfy { $0.isGlobalConstant(zoomOnly: zoomOnly) }
  }

  /// MapLibre's `isExpressionConstant`: may be folded to a literal when parsed.
  var isFoldable: Bool {
    switch kind {
    case .variable(_, let bound): return bound.isFoldable
    case .call(.error, _), .within, .distance: return false
    case .assertion(let a), .coercion(let a):
      guard a.allSatisfy(\.isFoldable) else { return false }
    default:
      guard children.allSatisfy(\.isLiteral) else { return false }
    }
    return isFeatureConstant && isGlobalConstant(zoomOnly: false)
  }

  /// The children, and for a variable its bound expression: what evaluation may reach.
  var reachable: [Node] {
    if case .variable(_, let bound) = kind { return [bound] }
    return children
  }

  /// Whether evaluation reads the feature (through variables too).
  var readsFeature: Bool {
    switch kind {
    case .property, .hasProperty, .within, .distance: return true
    case .call(let op, _):
      switch op {
      case .get, .has, .featureState, .properties, .geometryType, .id, .filterEq, .filterIdEq,
        .filterTypeEq, .filterLt, .filterIdLt, .filterGt, .filterIdGt, .filterLe, .filterIdLe,
        .filterGe, .filterIdGe, .filterHas, .filterHasId, .filterTypeIn, .filterIdIn,
        .filterInSmall, .filterInLarge:
        return true
      default: break
      }
    default: break
    }
    return reachable.contains(where: \.readsFeature)
  }

  /// Whether evaluation reads the feature's properties or id (through variables too): what
  /// `readsFeature` says, less the geometry type.
  var readsProperties: Bool {
    switch kind {
    case .property, .hasProperty, .within, .distance: return true
    case .call(let op, _):
      switch op {
      case .geometryType, .filterTypeEq, .filterTypeIn: return false
      case .get, .has, .featureState, .properties, .id, .filterEq, .filterIdEq, .filterLt,
        .filterIdLt, .filterGt, .filterIdGt, .filterLe, .filterIdLe, .filterGe, .filterIdGe,
        .filterHas, .filterHasId, .filterIdIn, .filterInSmall, .filterInLarge:
        return true
      default: break
      }
    default: break
    }
    return reachable.contains(where: \.readsProperties)
  }

  /// Whether evaluation reads the zoom (through variables too).
  var readsZoom: Bool {
    if case .call(.zoom, _) = kind { return true }
    return reachable.contains(where: \.readsZoom)
  }

  /// Whether evaluation may raise an error on purpose (`["error", …]`), which folding must keep.
  var containsErrorCall: Bool {
    if case .call(.error, _) = kind { return true }
    return reachable.contains { $0.containsErrorCall }
  }
}
