import DotRaster

/// simplestyle's `marker-symbol` on a terminal: a Maki icon name drawn as a character that
/// reads in one cell (no wide emoji: a marker takes one column), or the one character the
/// property gives. Anything else leaves the kind's glyph.
public enum MarkerSymbol {
  /// The Maki icon names drawn, each with its glyph and its stand-in where the map is drawn
  /// in ASCII (`c`). docs/live-layers.md has this table; a test keeps the two the same.
  public static let maki: [String: (glyph: Character, ascii: Character)] = [
    // Getting about.
    "airport": ("✈", "A"), "airfield": ("✈", "A"), "heliport": ("H", "H"),
    "harbor": ("⎈", "J"), "ferry": ("⇌", "~"), "rail": ("╫", "="), "rail-light": ("╫", "="),
    "rail-metro": ("M", "M"), "bus": ("B", "B"), "car": ("C", "C"), "car-rental": ("C", "C"),
    "bicycle": ("∞", "b"), "bicycle-share": ("∞", "b"), "fuel": ("F", "F"),
    "charging-station": ("⌁", "E"), "parking": ("P", "P"), "parking-garage": ("P", "P"),
    // Help.
    "hospital": ("✚", "+"), "doctor": ("⚕", "+"), "pharmacy": ("✙", "+"),
    "police": ("✪", "*"), "fire-station": ("♨", "!"), "danger": ("⚠", "!"),
    "information": ("i", "i"), "toilet": ("T", "T"), "telephone": ("☎", "T"),
    "post": ("✉", "M"), "embassy": ("⚑", "F"), "lighthouse": ("☼", "*"),
    // Eating, sleeping, shopping.
    "restaurant": ("Ψ", "R"), "fast-food": ("Ψ", "R"), "cafe": ("∪", "u"), "bar": ("Y", "Y"),
    "beer": ("∪", "u"), "lodging": ("⌂", "L"), "home": ("⌂", "L"), "campsite": ("Λ", "^"),
    "shop": ("$", "$"), "grocery": ("$", "$"), "bank": ("$", "$"),
    // Places.
    "park": ("♣", "T"), "water": ("≈", "~"), "swimming": ("≈", "~"), "mountain": ("▲", "^"),
    "attraction": ("★", "*"), "music": ("♫", "m"), "religious-christian": ("✝", "+"),
    "cemetery": ("✝", "+"), "religious-muslim": ("☪", "C"), "religious-jewish": ("✡", "*"),
    "recycling": ("♻", "R"),
    // Shapes.
    "marker": ("●", "@"), "marker-stroked": ("○", "o"), "circle": ("●", "o"),
    "circle-stroked": ("○", "o"), "square": ("■", "#"), "square-stroked": ("□", "#"),
    "triangle": ("▲", "^"), "triangle-stroked": ("△", "^"), "star": ("★", "*"),
    "star-stroked": ("☆", "*"), "heart": ("♥", "<"), "cross": ("✕", "x"),
  ]

  /// The glyph and its ASCII stand-in for a `marker-symbol` value: a Maki name (any case; an
  /// old size suffix such as `-15` is dropped), else one character that takes one cell (a
  /// letter, a digit, a symbol; its stand-in is itself when ASCII, else nil). Nil for
  /// anything else: an unknown name, a wide character, an emoji, a control character.
  public static func glyphs(for value: String) -> (glyph: Character, ascii: Character?)? {
    var name = Substring(value.trimmingCharacters(in: .whitespaces).lowercased())
    if let dash = name.lastIndex(of: "-"), name[name.index(after: dash)...].allSatisfy(\.isNumber),
      dash != name.startIndex, name.index(after: dash) != name.endIndex,
      maki[String(name)] == nil
    {
      name = name[..<dash]
    }
    if let m = maki[String(name)] { return (m.glyph, m.ascii) }
    guard value.count == 1, let c = value.first, reads(inOneCell: c) else { return nil }
    return (c, c.isASCII ? c : nil)
  }

  /// Whether a character is drawn in one terminal cell as text: one scalar (or a base and
  /// variation selector 15) of width 1, neither a control character nor one a terminal shows
  /// as a two-column emoji.
  static func reads(inOneCell c: Character) -> Bool {
    let scalars = Array(c.unicodeScalars)
    guard let s = scalars.first,
      scalars.count == 1 || (scalars.count == 2 && scalars[1].value == 0xFE0E)
    else { return false }
    guard c.isLetter || c.isNumber || c.isSymbol || c.isPunctuation else { return false }
    return CellBuffer.displayWidth(of: s) == 1 && !s.properties.isEmojiPresentation
  }
}
