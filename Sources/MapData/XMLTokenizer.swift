import Foundation

/// What the tokenizer found next.
enum XMLEvent: Equatable {
  /// A start tag; its name, namespace and attributes are on the tokenizer until the next call.
  /// An empty-element tag (`<a/>`) gives a start and then an end.
  case startElement
  case endElement
  /// Character data or a piece of it (long text and CDATA sections may come in pieces);
  /// `XMLTokenizer.appendText(to:)` decodes it.
  case text
  /// The end of the document, after its root element closed.
  case endOfDocument
}

/// A streaming, checking XML 1.0 tokenizer over the bytes of a file.
///
/// It reads the file in chunks (memory stays bounded by the chunk and the longest tag), checks
/// well-formedness (names, tag nesting, attribute syntax, entities, comments, one root element,
/// no truncation), checks that the text is valid UTF-8 without forbidden control characters,
/// resolves namespace prefixes to small numbers chosen by the caller, and reports every problem
/// as `path:line:column: message`. ISO-8859-1 and windows-1252 files (by their XML declaration)
/// are converted to UTF-8 as they are read. DTDs are skipped; entities they declare are unknown.
final class XMLTokenizer {
  let source: ByteSource
  var path: String { source.path }

  // The buffer: bytes [0, end) are loaded; buf[0] is byte `base` of the (UTF-8) stream.
  @exclusivity(unchecked) private(set) var buf: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private var capacity: Int
  @exclusivity(unchecked) private var end = 0
  @exclusivity(unchecked) private var pos = 0
  @exclusivity(unchecked) private var eof = false
  @exclusivity(unchecked) private var validated = 0
  @exclusivity(unchecked) private var base = 0
  @exclusivity(unchecked) private var baseLine = 1
  @exclusivity(unchecked) private var baseColumn = 1
  @exclusivity(unchecked) private var basePrevCR = false
  @exclusivity(unchecked) private var cache = LocationCache(
    offset: 0, line: 1, column: 1, prevCR: false)

  private enum Encoding { case utf8, latin1, windows1252 }
  @exclusivity(unchecked) private var encoding = Encoding.utf8
  @exclusivity(unchecked) private var raw: UnsafeMutablePointer<UInt8>?
  @exclusivity(unchecked) private var rawCapacity = 0

  // Document state.
  @exclusivity(unchecked) private var rootSeen = false
  @exclusivity(unchecked) private var rootClosed = false
  @exclusivity(unchecked) private var rootName = ""
  @exclusivity(unchecked) private var pendingEnd = false
  @exclusivity(unchecked) private var documentStart = 0
  @exclusivity(unchecked) private var inCDATA = false
  @exclusivity(unchecked) private var cdataLocation = (line: 1, column: 1)
  @exclusivity(unchecked) private var names: [UInt8] = []
  @exclusivity(unchecked) private var stack: [OpenElement] = []
  @exclusivity(unchecked) private var bindings: [Binding] = []
  private let known: [String: Int]

  // The current token.
  /// The absolute offset of the current token's first byte.
  @exclusivity(unchecked) private(set) var tokenOffset = 0
  @exclusivity(unchecked) private(set) var nameStart = 0
  @exclusivity(unchecked) private(set) var nameEnd = 0
  /// Where the local part of the name starts (after `prefix:`).
  @exclusivity(unchecked) private(set) var localStart = 0
  /// The namespace of the current start tag: 0 none, a caller's number, or -1 another.
  @exclusivity(unchecked) private(set) var namespace = 0
  @exclusivity(unchecked) private(set) var isEmptyElement = false
  @exclusivity(unchecked) private(set) var attributes: [XMLAttribute] = []
  @exclusivity(unchecked) private(set) var textStart = 0
  @exclusivity(unchecked) private(set) var textEnd = 0
  @exclusivity(unchecked) private var textIsCDATA = false
  @exclusivity(unchecked) private var textNeedsDecoding = false

  struct XMLAttribute {
    var nameStart: Int
    var nameEnd: Int
    var localStart: Int
    var valueStart: Int
    var valueEnd: Int
    var needsDecoding: Bool
  }

  private struct OpenElement {
    var nameStart: Int
    var nameLength: Int
    var offset: Int
    var line: Int
    var column: Int
    var defaultNamespace: Int
    var bindingCount: Int
  }

  private struct Binding {
    var prefix: [UInt8]
    var namespace: Int
  }

  private struct LocationCache {
    var offset: Int
    var line: Int
    var column: Int
    var prevCR: Bool
  }

  private enum Step {
    case event(XMLEvent)
    case skipped
    case needMore
  }

  /// Starts reading `source`. `namespaces` maps namespace URIs to the positive numbers that
  /// `namespace` reports for elements in them.
  init(source: ByteSource, namespaces: [String: Int], chunkSize: Int = 1 << 20)
    throws(DataFileError)
  {
    self.source = source
    known = namespaces
    var size = chunkSize
    if let total = source.totalSize { size = min(size, max(total + 16, 4096)) }
    capacity = size
    buf = .allocate(capacity: size)
    stack.reserveCapacity(16)
    attributes.reserveCapacity(8)
    try start()
  }

  deinit {
    buf.deallocate()
    raw?.deallocate()
  }

  // MARK: Public reading

  /// The number of elements open, the current one included.
  var depth: Int { stack.count }

  /// The next event.
  func next() throws(DataFileError) -> XMLEvent {
    if pendingEnd {
      pendingEnd = false
      pop()
      return .endElement
    }
    while true {
      if pos >= end {
        if try !refill(keepingFrom: pos) { return try finish() }
        continue
      }
      let tokenStart = pos
      let step: Step
      if inCDATA {
        step = scanCDATAContent()
      } else if buf[pos] != Chars.lt {
        step = try scanText()
      } else {
        step = try scanMarkup()
      }
      switch step {
      case .event(let e): return e
      case .skipped: continue
      case .needMore:
        if eof { throw truncated(at: tokenStart) }
        let shift = tokenStart
        _ = try refill(keepingFrom: tokenStart)
        pos = tokenStart - shift
      }
    }
  }

  /// After a start event: reads through the matching end, checking but ignoring what is inside.
  func skipElement() throws(DataFileError) {
    let target = stack.count
    while true {
      let e = try next()
      if e == .endElement && stack.count < target { return }
      if e == .endOfDocument { return }
    }
  }

  /// Whether the current element's local name is `name` (ASCII).
  @inline(__always)
  func localNameIs(_ name: StaticString) -> Bool {
    let n = name.utf8CodeUnitCount
    guard nameEnd - localStart == n else { return false }
    return memcmp(buf + localStart, name.utf8Start, n) == 0
  }

  /// The prefix of the current element's name, empty when it has none.
  var prefix: String {
    localStart == nameStart
      ? ""
      : String(
        decoding: UnsafeBufferPointer(start: buf + nameStart, count: localStart - nameStart - 1),
        as: UTF8.self)
  }

  /// The current element's qualified name.
  var qualifiedName: String {
    String(
      decoding: UnsafeBufferPointer(start: buf + nameStart, count: nameEnd - nameStart),
      as: UTF8.self)
  }

  /// The index of the unprefixed attribute called `name`, if the current tag has it.
  func attribute(_ name: StaticString) -> Int? {
    let n = name.utf8CodeUnitCount
    for (k, a) in attributes.enumerated()
    where a.nameEnd - a.nameStart == n && memcmp(buf + a.nameStart, name.utf8Start, n) == 0 {
      return k
    }
    return nil
  }

  /// The decoded value of attribute `k` as text.
  func attributeString(_ k: Int) -> String {
    let a = attributes[k]
    if !a.needsDecoding {
      return String(
        decoding: UnsafeBufferPointer(start: buf + a.valueStart, count: a.valueEnd - a.valueStart),
        as: UTF8.self)
    }
    var out: [UInt8] = []
    decode(a.valueStart, a.valueEnd, attribute: true, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The absolute offset of attribute `k`'s value.
  func attributeOffset(_ k: Int) -> Int { base + attributes[k].valueStart }

  /// Appends the current text event's characters (entities decoded, line ends normalised).
  func appendText(to out: inout [UInt8]) {
    if textIsCDATA || !textNeedsDecoding {
      out.append(
        contentsOf: UnsafeBufferPointer(start: buf + textStart, count: textEnd - textStart))
    } else {
      decode(textStart, textEnd, attribute: false, into: &out)
    }
  }

  /// Whether the current text event is only white space.
  var textIsWhitespace: Bool {
    var i = textStart
    while i < textEnd {
      let c = buf[i]
      if c != Chars.space && c != Chars.lf && c != Chars.tab && c != Chars.cr { return false }
      i += 1
    }
    return true
  }

  /// The absolute offset of the current text event's first byte.
  var textOffset: Int { base + textStart }

  // MARK: Locations and errors

  /// The 1-based line and column (in Unicode scalars) of an absolute offset that is still in
  /// the buffer; an earlier offset gives the start of the buffer.
  func location(of absolute: Int) -> (line: Int, column: Int) {
    var rel = absolute - base
    if rel <= 0 { return (baseLine, baseColumn) }
    rel = min(rel, end)
    var c = cache
    if c.offset > rel {
      c = LocationCache(offset: 0, line: baseLine, column: baseColumn, prevCR: basePrevCR)
    }
    advance(&c, to: rel)
    cache = c
    return (c.line, c.column)
  }

  private func advance(_ c: inout LocationCache, to rel: Int) {
    let p = buf
    var i = c.offset
    // Fast path: count line feeds; fall back to the exact loop when a CR is present.
    var lfs = 0
    var crs = 0
    var k = i
    while k < rel {
      let b = p[k]
      lfs &+= b == Chars.lf ? 1 : 0
      crs &+= b == Chars.cr ? 1 : 0
      k += 1
    }
    if crs == 0 && !c.prevCR {
      if lfs == 0 {
        while i < rel {
          if p[i] & 0xC0 != 0x80 { c.column += 1 }
          i += 1
        }
      } else {
        c.line += lfs
        var j = rel - 1
        while p[j] != Chars.lf { j -= 1 }
        c.column = 1
        i = j + 1
        while i < rel {
          if p[i] & 0xC0 != 0x80 { c.column += 1 }
          i += 1
        }
      }
      c.offset = rel
      return
    }
    while i < rel {
      let b = p[i]
      if b == Chars.cr {
        c.line += 1
        c.column = 1
        c.prevCR = true
      } else if b == Chars.lf {
        if !c.prevCR { c.line += 1 }
        c.column = 1
        c.prevCR = false
      } else {
        if b & 0xC0 != 0x80 { c.column += 1 }
        c.prevCR = false
      }
      i += 1
    }
    c.offset = rel
  }

  /// An error located at an absolute offset.
  func error(at absolute: Int, _ message: String) -> DataFileError {
    let (line, column) = location(of: absolute)
    return DataFileError(path: path, line: line, column: column, message: message)
  }

  private func fail(_ rel: Int, _ message: String) -> DataFileError {
    error(at: base + rel, message)
  }

  /// The line an open element started on.
  private func line(of element: OpenElement) -> Int {
    element.line > 0 ? element.line : location(of: element.offset).line
  }

  // MARK: Buffer

  private func start() throws(DataFileError) {
    end = try source.read(into: buf, count: capacity)
    if end == 0 { throw DataFileError(path: path, message: "file is empty") }
    // The XML declaration, when there is one, must be whole in the buffer.
    var wanted = min(capacity, 64)
    while end < wanted || (wanted < 1024 && declarationIsOpen()) {
      if end == capacity { ensureRoom(capacity) }
      let n = try source.read(into: buf + end, count: capacity - end)
      if n == 0 { break }
      end += n
      wanted = max(wanted, min(end, 1024))
    }
    if end >= 2 && ((buf[0] == 0xFF && buf[1] == 0xFE) || (buf[0] == 0xFE && buf[1] == 0xFF)) {
      throw DataFileError(
        path: path, byteOffset: 0, message: "the file is UTF-16 text; save it as UTF-8")
    }
    if end >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF {
      buf.update(from: buf + 3, count: end - 3)
      end -= 3
      base = 3
    }
    documentStart = base
    try readDeclaration()
    try validate()
  }

  /// Whether the buffer starts an XML declaration that it does not yet hold to its end.
  private func declarationIsOpen() -> Bool {
    var k = (end >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF) ? 3 : 0
    let prefix: [UInt8] = Array("<?xml".utf8)
    for c in prefix {
      if k >= end { return true }
      if buf[k] != c { return false }
      k += 1
    }
    while k + 1 < end {
      if buf[k] == UInt8(ascii: "?") && buf[k + 1] == Chars.gt { return false }
      k += 1
    }
    return true
  }

  /// Reads the encoding from an XML declaration at the start and converts the rest if needed.
  private func readDeclaration() throws(DataFileError) {
    guard end >= 6, buf[0] == Chars.lt, buf[1] == UInt8(ascii: "?"), buf[2] == UInt8(ascii: "x"),
      buf[3] == UInt8(ascii: "m"), buf[4] == UInt8(ascii: "l"), isSpace(buf[5])
    else { return }
    var close = 5
    while close + 1 < end && !(buf[close] == UInt8(ascii: "?") && buf[close + 1] == Chars.gt) {
      close += 1
    }
    guard close + 1 < end else { return }  // reported by the tokenizer
    let decl = Array(UnsafeBufferPointer(start: buf, count: close))
    guard let at = find(Array("encoding".utf8), in: decl) else { return }
    var i = at + 8
    while i < decl.count && (isSpace(decl[i]) || decl[i] == UInt8(ascii: "=")) { i += 1 }
    guard i < decl.count, decl[i] == Chars.quote || decl[i] == Chars.apos else { return }
    let q = decl[i]
    let valueStart = i + 1
    var j = valueStart
    while j < decl.count && decl[j] != q { j += 1 }
    let name = String(decoding: decl[valueStart..<j], as: UTF8.self)
    switch name.lowercased() {
    case "utf-8", "utf8", "us-ascii", "ascii": return
    case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "iso_8859-1": encoding = .latin1
    case "windows-1252", "cp1252": encoding = .windows1252
    default:
      throw fail(
        valueStart,
        "unsupported encoding \"\(TextSanitizer.clean(name))\" (termmap reads UTF-8, US-ASCII, "
          + "ISO-8859-1 and windows-1252; save the file as UTF-8)")
    }
    // Convert what was read after the declaration.
    let from = close + 2
    let rest = Array(UnsafeBufferPointer(start: buf + from, count: end - from))
    end = from
    let converted = convert(rest)
    ensureRoom(converted.count)
    (buf + end).update(from: converted, count: converted.count)
    end += converted.count
  }

  private func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
    guard hay.count >= needle.count else { return nil }
    for i in 0...(hay.count - needle.count) where hay[i..<(i + needle.count)].elementsEqual(needle)
    {
      return i
    }
    return nil
  }

  private static let windows1252: [UInt32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
  ]

  /// The most UTF-8 bytes one byte of ISO-8859-1 (2) or windows-1252 (3, e.g. € E2 82 AC)
  /// turns into.
  static let maxUTF8BytesPerByte = 3

  /// The UTF-8 bytes of 0x80...0xFF in ISO-8859-1 and in windows-1252.
  private static let latin1UTF8: [[UInt8]] = (0x80...0xFF).map {
    Array(String(Unicode.Scalar(UInt8($0))).utf8)
  }
  private static let windows1252UTF8: [[UInt8]] = (0x80...0xFF).map { b in
    let scalar = b < 0xA0 ? windows1252[b - 0x80] : UInt32(b)
    return Array(String(Unicode.Scalar(scalar)!).utf8)
  }

  private func convert(_ bytes: some Collection<UInt8>) -> [UInt8] {
    let table = encoding == .windows1252 ? Self.windows1252UTF8 : Self.latin1UTF8
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 8)
    for b in bytes {
      if b < 0x80 {
        out.append(b)
      } else {
        out += table[Int(b - 0x80)]
      }
    }
    return out
  }

  /// Makes room for `extra` more bytes after `end`.
  private func ensureRoom(_ extra: Int) {
    if end + extra <= capacity { return }
    var newCapacity = capacity * 2
    while newCapacity < end + extra { newCapacity *= 2 }
    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    bigger.update(from: buf, count: end)
    buf.deallocate()
    buf = bigger
    capacity = newCapacity
  }

  /// Drops bytes before `keep`, reads more; false at the end of the file with nothing read.
  private func refill(keepingFrom wanted: Int) throws(DataFileError) -> Bool {
    if eof { return false }
    // Bytes not yet validated stay (a UTF-8 sequence cut by the last read is checked whole
    // once the rest arrives; dropping its lead would leave `validated` before the buffer).
    let keep = min(wanted, validated)
    if keep > 0 {
      // Remember the lines of open elements whose start is about to leave the buffer.
      for k in stack.indices where stack[k].line == 0 && stack[k].offset < base + keep {
        let (l, c) = location(of: stack[k].offset)
        stack[k].line = l
        stack[k].column = c
      }
      var c = cache
      if c.offset > keep {
        c = LocationCache(offset: 0, line: baseLine, column: baseColumn, prevCR: basePrevCR)
      }
      advance(&c, to: keep)
      baseLine = c.line
      baseColumn = c.column
      basePrevCR = c.prevCR
      cache = LocationCache(offset: 0, line: baseLine, column: baseColumn, prevCR: basePrevCR)
      buf.update(from: buf + keep, count: end - keep)
      end -= keep
      validated -= keep
      base += keep
      pos -= keep
    }
    if end * 4 > capacity * 3 { ensureRoom(capacity) }
    var n: Int
    if encoding == .utf8 {
      n = try source.read(into: buf + end, count: capacity - end)
    } else {
      // A single-byte encoding's byte becomes at most 3 UTF-8 bytes (windows-1252's 0x80–0x9F
      // are U+20AC and the like), so a third of the free room is read; the copy below still
      // makes room for what the conversion produced rather than trust that arithmetic.
      let want = max((capacity - end) / Self.maxUTF8BytesPerByte, 1)
      if rawCapacity < want {
        raw?.deallocate()
        raw = .allocate(capacity: want)
        rawCapacity = want
      }
      n = try source.read(into: raw!, count: want)
      let converted = convert(UnsafeBufferPointer(start: raw!, count: n))
      ensureRoom(converted.count)
      (buf + end).update(from: converted, count: converted.count)
      n = converted.count
    }
    if n == 0 {
      eof = true
      try validate()
      return false
    }
    end += n
    try validate()
    return true
  }

  /// Checks the loaded bytes are UTF-8 without control characters that XML forbids.
  private func validate() throws(DataFileError) {
    let p = buf
    var i = validated
    let n = end
    while i < n {
      // Eight bytes at a time while they are ASCII at or above 0x20.
      while i + 8 <= n {
        let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
        let high = w & 0x8080_8080_8080_8080
        let low = (w &- 0x2020_2020_2020_2020) & ~w & 0x8080_8080_8080_8080
        if high | low != 0 { break }
        i += 8
      }
      if i >= n { break }
      let c = p[i]
      if c < 0x80 {
        if c < 0x20 && c != Chars.tab && c != Chars.lf && c != Chars.cr {
          throw fail(
            i,
            "control character U+\(hex(UInt32(c), width: 4)) is not allowed in XML"
              + (c == 0 ? " (is the file binary or UTF-16?)" : ""))
        }
        i += 1
        continue
      }
      guard let (length, lo, hi) = UTF8Lead.sequence(startingWith: c) else {
        throw invalidUTF8(i)
      }
      if i + length > n {
        // Possibly cut by the chunk: check what is there and finish after the next read.
        if !eof {
          var ok = i + 1 >= n || (p[i + 1] >= lo && p[i + 1] <= hi)
          var k = 2
          while ok && i + k < n {
            ok = p[i + k] & 0xC0 == 0x80
            k += 1
          }
          if ok { break }
        }
        throw invalidUTF8(i)
      }
      guard p[i + 1] >= lo, p[i + 1] <= hi else { throw invalidUTF8(i) }
      for k in 2..<length where p[i + k] & 0xC0 != 0x80 { throw invalidUTF8(i) }
      i += length
    }
    validated = i
  }

  private func invalidUTF8(_ rel: Int) -> DataFileError {
    fail(
      rel, "invalid UTF-8 (byte 0x\(hex(UInt32(buf[rel]), width: 2))); the file must be UTF-8 text")
  }

  private func hex(_ v: UInt32, width: Int) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(width - s.count, 0)) + s
  }

  // MARK: Scanning

  @inline(__always) private func isSpace(_ c: UInt8) -> Bool {
    c == Chars.space || c == Chars.lf || c == Chars.tab || c == Chars.cr
  }

  @inline(__always) private func isNameStart(_ c: UInt8) -> Bool {
    let l = c | 0x20
    return (l >= UInt8(ascii: "a") && l <= UInt8(ascii: "z")) || c == UInt8(ascii: "_")
      || c == UInt8(ascii: ":") || c >= 0x80
  }

  @inline(__always) private func isNameChar(_ c: UInt8) -> Bool {
    isNameStart(c) || (c >= Chars.zero && c <= Chars.nine) || c == Chars.minus || c == Chars.dot
  }

  /// Text up to the next `<`, or to the end of the buffer.
  private func scanText() throws(DataFileError) -> Step {
    let p = buf
    let e = end
    let first = pos
    var i = pos
    var needsDecoding = false
    while i < e {
      let c = p[i]
      if c == Chars.lt { break }
      if c == Chars.amp {
        guard let after = try entity(at: i) else { break }  // cut by the buffer
        needsDecoding = true
        i = after
        continue
      }
      if c == Chars.cr { needsDecoding = true }
      if c == UInt8(ascii: "]") && i + 2 < e && p[i + 1] == UInt8(ascii: "]")
        && p[i + 2] == Chars.gt
      {
        throw fail(i, "\"]]>\" is not allowed in text (write \"]]&gt;\")")
      }
      i += 1
    }
    if i == first { return .needMore }
    if stack.isEmpty {
      var k = first
      while k < i && isSpace(p[k]) { k += 1 }
      if k < i {
        if rootClosed {
          throw fail(k, "unexpected text after the end of the root element </\(rootName)>")
        }
        throw fail(k, "unexpected text before the root element (expected \"<\")")
      }
      pos = i
      return .skipped
    }
    tokenOffset = base + first
    textStart = first
    textEnd = i
    textIsCDATA = false
    textNeedsDecoding = needsDecoding
    pos = i
    return .event(.text)
  }

  /// Checks the entity or character reference at `i` (an `&`); returns the offset after its
  /// `;`, or nil when the buffer ends first.
  private func entity(at i: Int) throws(DataFileError) -> Int? {
    let p = buf
    var j = i + 1
    while j < end && j - i <= 12 && p[j] != Chars.semicolon && !isSpace(p[j]) && p[j] != Chars.lt
      && p[j] != Chars.amp
    {
      j += 1
    }
    if j >= end && !eof { return nil }
    guard j < end, p[j] == Chars.semicolon else {
      throw fail(
        i, "\"&\" must start an entity such as &amp; or &lt; (write \"&amp;\" for \"&\")")
    }
    if decodeEntity(i + 1, j) == nil {
      let name = String(
        decoding: UnsafeBufferPointer(start: p + i, count: j + 1 - i), as: UTF8.self)
      throw fail(i, "unknown or invalid entity \"\(TextSanitizer.clean(name))\"")
    }
    return j + 1
  }

  /// The scalar an entity's name `[start, end)` (between `&` and `;`) stands for.
  private func decodeEntity(_ start: Int, _ stop: Int) -> Unicode.Scalar? {
    let p = buf
    let n = stop - start
    if n >= 2 && p[start] == UInt8(ascii: "#") {
      var value: UInt32 = 0
      var k = start + 1
      let hexadecimal = p[k] == UInt8(ascii: "x")
      if hexadecimal { k += 1 }
      guard k < stop else { return nil }
      while k < stop {
        let c = p[k]
        let digit: UInt32
        if c >= Chars.zero && c <= Chars.nine {
          digit = UInt32(c - Chars.zero)
        } else if hexadecimal, (c | 0x20) >= UInt8(ascii: "a"), (c | 0x20) <= UInt8(ascii: "f") {
          digit = UInt32((c | 0x20) - UInt8(ascii: "a") + 10)
        } else {
          return nil
        }
        value = value * (hexadecimal ? 16 : 10) + digit
        if value > 0x10FFFF { return nil }
        k += 1
      }
      if value < 0x20 && value != 0x9 && value != 0xA && value != 0xD { return nil }
      if value == 0xFFFE || value == 0xFFFF { return nil }
      return Unicode.Scalar(value)
    }
    func isName(_ s: StaticString) -> Bool {
      n == s.utf8CodeUnitCount && memcmp(p + start, s.utf8Start, n) == 0
    }
    if isName("lt") { return "<" }
    if isName("gt") { return ">" }
    if isName("amp") { return "&" }
    if isName("quot") { return "\"" }
    if isName("apos") { return "'" }
    return nil
  }

  /// Appends `[start, end)` with entities decoded and line ends normalised (and, in attribute
  /// values, white space characters made spaces).
  private func decode(_ start: Int, _ stop: Int, attribute: Bool, into out: inout [UInt8]) {
    let p = buf
    var i = start
    while i < stop {
      let c = p[i]
      if c == Chars.amp {
        var j = i + 1
        while p[j] != Chars.semicolon { j += 1 }
        if let s = decodeEntity(i + 1, j) {
          out.append(contentsOf: String(s).utf8)
        }
        i = j + 1
        continue
      }
      if c == Chars.cr {
        out.append(attribute ? Chars.space : Chars.lf)
        if i + 1 < stop && p[i + 1] == Chars.lf { i += 1 }
      } else if attribute && (c == Chars.lf || c == Chars.tab) {
        out.append(Chars.space)
      } else {
        out.append(c)
      }
      i += 1
    }
  }

  /// Continues a CDATA section.
  private func scanCDATAContent() -> Step {
    let p = buf
    var i = pos
    while i + 2 < end {
      if p[i] == UInt8(ascii: "]") && p[i + 1] == UInt8(ascii: "]") && p[i + 2] == Chars.gt {
        inCDATA = false
        let first = pos
        pos = i + 3
        if i == first { return .skipped }
        tokenOffset = base + first
        textStart = first
        textEnd = i
        textIsCDATA = true
        pos = i + 3
        return .event(.text)
      }
      i += 1
    }
    // Emit what is surely content; keep two bytes in case "]]>" is cut.
    if i > pos && !eof {
      tokenOffset = base + pos
      textStart = pos
      textEnd = i
      textIsCDATA = true
      pos = i
      return .event(.text)
    }
    return .needMore
  }

  private func scanMarkup() throws(DataFileError) -> Step {
    let p = buf
    let e = end
    let s = pos
    guard s + 1 < e else { return .needMore }
    let c = p[s + 1]
    if c == UInt8(ascii: "/") { return try scanEndTag() }
    if c == UInt8(ascii: "?") { return try scanProcessingInstruction() }
    if c == UInt8(ascii: "!") {
      guard s + 3 < e else { return .needMore }
      if p[s + 2] == Chars.minus && p[s + 3] == Chars.minus { return try scanComment() }
      if p[s + 2] == UInt8(ascii: "[") {
        guard s + 9 <= e else { return .needMore }
        guard memcmp(p + s + 2, "[CDATA[", 7) == 0 else {
          throw fail(s, "expected \"<![CDATA[\" after \"<![\"")
        }
        if stack.isEmpty { throw fail(s, "a CDATA section is only allowed inside an element") }
        inCDATA = true
        cdataLocation = location(of: base + s)
        pos = s + 9
        return .skipped
      }
      guard s + 9 <= e else { return .needMore }
      if memcmp(p + s + 2, "DOCTYPE", 7) == 0 { return try scanDoctype() }
      throw fail(s, "unexpected \"<!\" (expected a comment, a CDATA section or a DOCTYPE)")
    }
    return try scanStartTag()
  }

  private func scanStartTag() throws(DataFileError) -> Step {
    let p = buf
    let e = end
    let s = pos
    var i = s + 1
    guard isNameStart(p[i]) else {
      throw fail(
        i, "expected an element name after \"<\", found \(shownByte(i)) (write \"&lt;\" for \"<\")")
    }
    var colon = -1
    while i < e && isNameChar(p[i]) {
      if p[i] == UInt8(ascii: ":") && colon < 0 { colon = i }
      i += 1
    }
    if i >= e { return .needMore }
    let nStart = s + 1
    let nEnd = i
    attributes.removeAll(keepingCapacity: true)
    var empty = false
    while true {
      let before = i
      while i < e && isSpace(p[i]) { i += 1 }
      if i >= e { return .needMore }
      let c = p[i]
      if c == Chars.gt {
        i += 1
        break
      }
      if c == UInt8(ascii: "/") {
        guard i + 1 < e else { return .needMore }
        guard p[i + 1] == Chars.gt else { throw fail(i + 1, "expected \">\" after \"/\" in a tag") }
        empty = true
        i += 2
        break
      }
      guard isNameStart(c) else {
        throw fail(i, "unexpected \(shownByte(i)) in the tag <\(name(nStart, nEnd))>")
      }
      if i == before {
        throw fail(i, "expected white space between attributes")
      }
      let aStart = i
      var aLocal = i
      while i < e && isNameChar(p[i]) {
        if p[i] == UInt8(ascii: ":") && aLocal == aStart { aLocal = i + 1 }
        i += 1
      }
      let aEnd = i
      while i < e && isSpace(p[i]) { i += 1 }
      if i >= e { return .needMore }
      guard p[i] == UInt8(ascii: "=") else {
        throw fail(i, "expected \"=\" after the attribute name \(name(aStart, aEnd))")
      }
      i += 1
      while i < e && isSpace(p[i]) { i += 1 }
      if i >= e { return .needMore }
      let q = p[i]
      guard q == Chars.quote || q == Chars.apos else {
        throw fail(i, "expected a quoted value for the attribute \(name(aStart, aEnd))")
      }
      i += 1
      let vStart = i
      var needsDecoding = false
      while i < e && p[i] != q {
        let v = p[i]
        if v == Chars.lt {
          throw fail(i, "\"<\" is not allowed in an attribute value (write \"&lt;\")")
        }
        if v == Chars.amp {
          guard let after = try entity(at: i) else { return .needMore }
          needsDecoding = true
          i = after
          continue
        }
        if v == Chars.lf || v == Chars.cr || v == Chars.tab { needsDecoding = true }
        i += 1
      }
      if i >= e { return .needMore }
      attributes.append(
        XMLAttribute(
          nameStart: aStart, nameEnd: aEnd, localStart: aLocal, valueStart: vStart, valueEnd: i,
          needsDecoding: needsDecoding))
      i += 1
    }
    // The tag is complete.
    try checkDuplicateAttributes()
    if stack.count >= Self.maxDepth {
      throw fail(
        s, "elements nest deeper than \(Self.maxDepth) levels (<\(name(nStart, nEnd))> here)")
    }
    if stack.isEmpty {
      if rootClosed {
        throw fail(
          s,
          "a second root element <\(name(nStart, nEnd))> after </\(rootName)> (a document has one root element)"
        )
      }
      rootSeen = true
      rootName = name(nStart, nEnd)
    }
    tokenOffset = base + s
    nameStart = nStart
    nameEnd = nEnd
    localStart = colon >= 0 ? colon + 1 : nStart
    isEmptyElement = empty
    pos = i
    push()
    if empty { pendingEnd = true }
    return .event(.startElement)
  }

  /// Elements may nest this deep; a deeper start tag is an error, so no reader built on the
  /// tokenizer recurses further.
  static let maxDepth = 256
  /// Tags with up to this many attributes are checked for repeated names pairwise; larger
  /// ones through a set, so the check stays linear in the tag's size.
  static let pairwiseAttributes = 16

  /// Throws for the first attribute whose name an earlier one of the same tag has.
  private func checkDuplicateAttributes() throws(DataFileError) {
    let count = attributes.count
    guard count > 1 else { return }
    if count <= Self.pairwiseAttributes {
      for a in 1..<count {
        for b in 0..<a
        where same(
          attributes[a].nameStart, attributes[a].nameEnd, attributes[b].nameStart,
          attributes[b].nameEnd)
        {
          throw duplicate(attributes[a])
        }
      }
      return
    }
    var seen = Set<[UInt8]>(minimumCapacity: count)
    for a in attributes
    where !seen.insert(
      Array(UnsafeBufferPointer(start: buf + a.nameStart, count: a.nameEnd - a.nameStart))
    ).inserted {
      throw duplicate(a)
    }
  }

  private func duplicate(_ a: XMLAttribute) -> DataFileError {
    fail(a.nameStart, "the attribute \(name(a.nameStart, a.nameEnd)) appears twice")
  }

  private func same(_ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int) -> Bool {
    a1 - a0 == b1 - b0 && memcmp(buf + a0, buf + b0, a1 - a0) == 0
  }

  private func name(_ start: Int, _ stop: Int) -> String {
    let s = String(
      decoding: UnsafeBufferPointer(start: buf + start, count: stop - start), as: UTF8.self)
    return TextSanitizer.clean(s.count > 40 ? String(s.prefix(40)) + "…" : s)
  }

  private func shownByte(_ i: Int) -> String {
    let c = buf[i]
    if c >= 0x21 && c < 0x7F { return "\"\(Character(Unicode.Scalar(c)))\"" }
    if isSpace(c) { return "white space" }
    if c >= 0x80 {
      var j = i + 1
      while j < end && buf[j] & 0xC0 == 0x80 { j += 1 }
      return
        "\"\(String(decoding: UnsafeBufferPointer(start: buf + i, count: j - i), as: UTF8.self))\""
    }
    return "byte 0x\(hex(UInt32(c), width: 2))"
  }

  /// Opens the current start tag: namespaces and the element stack.
  private func push() {
    let parentDefault = stack.last?.defaultNamespace ?? 0
    var defaultNamespace = parentDefault
    let bindingCount = bindings.count
    for a in attributes {
      let n = a.nameEnd - a.nameStart
      guard n >= 5, memcmp(buf + a.nameStart, "xmlns", 5) == 0 else { continue }
      let uri = attributeValue(a)
      let id = uri.isEmpty ? 0 : (known[uri] ?? -1)
      if n == 5 {
        defaultNamespace = id
      } else if buf[a.nameStart + 5] == UInt8(ascii: ":") {
        bindings.append(
          Binding(
            prefix: Array(UnsafeBufferPointer(start: buf + a.nameStart + 6, count: n - 6)),
            namespace: id))
      }
    }
    if localStart == nameStart {
      namespace = defaultNamespace
    } else {
      namespace = -1
      let plen = localStart - nameStart - 1
      var k = bindings.count - 1
      while k >= 0 {
        let b = bindings[k]
        if b.prefix.count == plen
          && b.prefix.withUnsafeBufferPointer({ memcmp($0.baseAddress!, buf + nameStart, plen) })
            == 0
        {
          namespace = b.namespace
          break
        }
        k -= 1
      }
    }
    let offset = names.count
    names.append(
      contentsOf: UnsafeBufferPointer(start: buf + nameStart, count: nameEnd - nameStart))
    stack.append(
      OpenElement(
        nameStart: offset, nameLength: nameEnd - nameStart, offset: tokenOffset, line: 0,
        column: 0, defaultNamespace: defaultNamespace, bindingCount: bindingCount))
  }

  private func attributeValue(_ a: XMLAttribute) -> String {
    if !a.needsDecoding {
      return String(
        decoding: UnsafeBufferPointer(start: buf + a.valueStart, count: a.valueEnd - a.valueStart),
        as: UTF8.self)
    }
    var out: [UInt8] = []
    decode(a.valueStart, a.valueEnd, attribute: true, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  private func pop() {
    let top = stack.removeLast()
    names.removeLast(top.nameLength)
    bindings.removeLast(bindings.count - top.bindingCount)
    if stack.isEmpty { rootClosed = true }
  }

  private func openName(_ element: OpenElement) -> String {
    let s = String(
      decoding: names[element.nameStart..<(element.nameStart + element.nameLength)], as: UTF8.self)
    return TextSanitizer.clean(s)
  }

  private func scanEndTag() throws(DataFileError) -> Step {
    let p = buf
    let e = end
    let s = pos
    var i = s + 2
    if i >= e { return .needMore }
    guard isNameStart(p[i]) else {
      throw fail(i, "expected an element name after \"</\", found \(shownByte(i))")
    }
    while i < e && isNameChar(p[i]) { i += 1 }
    let nEnd = i
    while i < e && isSpace(p[i]) { i += 1 }
    if i >= e { return .needMore }
    guard p[i] == Chars.gt else {
      throw fail(i, "expected \">\" to end the tag </\(name(s + 2, nEnd))>")
    }
    guard let top = stack.last else {
      throw fail(s, "unexpected end tag </\(name(s + 2, nEnd))> (no element is open)")
    }
    let n = nEnd - (s + 2)
    let matches =
      n == top.nameLength
      && names.withUnsafeBufferPointer { memcmp($0.baseAddress! + top.nameStart, p + s + 2, n) }
        == 0
    if !matches {
      let openLine = self.line(of: top)
      throw fail(
        s,
        "expected </\(openName(top))> to close <\(openName(top))> from line \(openLine), "
          + "found </\(name(s + 2, nEnd))>")
    }
    tokenOffset = base + s
    pos = i + 1
    pop()
    return .event(.endElement)
  }

  private func scanComment() throws(DataFileError) -> Step {
    let p = buf
    let e = end
    var i = pos + 4
    while i + 1 < e {
      if p[i] == Chars.minus && p[i + 1] == Chars.minus {
        guard i + 2 < e else { return .needMore }
        guard p[i + 2] == Chars.gt else {
          throw fail(i, "\"--\" is not allowed inside a comment")
        }
        pos = i + 3
        return .skipped
      }
      i += 1
    }
    return .needMore
  }

  private func scanProcessingInstruction() throws(DataFileError) -> Step {
    let p = buf
    let e = end
    let s = pos
    var i = s + 2
    guard i < e else { return .needMore }
    guard isNameStart(p[i]) else {
      throw fail(i, "expected a name after \"<?\"")
    }
    while i < e && isNameChar(p[i]) { i += 1 }
    if i >= e { return .needMore }
    let target = name(s + 2, i).lowercased()
    while i + 1 < e {
      if p[i] == UInt8(ascii: "?") && p[i + 1] == Chars.gt {
        if target == "xml" && base + s != documentStart {
          throw fail(s, "the XML declaration <?xml …?> must be at the very start of the file")
        }
        pos = i + 2
        return .skipped
      }
      i += 1
    }
    return .needMore
  }

  private func scanDoctype() throws(DataFileError) -> Step {
    let p = buf
    let e = end
    let s = pos
    if rootSeen { throw fail(s, "a DOCTYPE is only allowed before the root element") }
    var i = s + 9
    var bracket = 0
    var quote: UInt8 = 0
    while i < e {
      let c = p[i]
      if quote != 0 {
        if c == quote { quote = 0 }
      } else if c == Chars.quote || c == Chars.apos {
        quote = c
      } else if c == UInt8(ascii: "[") {
        bracket += 1
      } else if c == UInt8(ascii: "]") {
        bracket -= 1
      } else if c == Chars.gt && bracket <= 0 {
        pos = i + 1
        return .skipped
      }
      i += 1
    }
    return .needMore
  }

  private func cdataTruncated() -> DataFileError {
    DataFileError(
      path: path, line: cdataLocation.line, column: cdataLocation.column,
      message: "the file ends inside a CDATA section (it may be truncated)")
  }

  /// The error for a token the file ends inside.
  private func truncated(at rel: Int) -> DataFileError {
    let p = buf
    var what = "a tag"
    if inCDATA {
      return cdataTruncated()
    }
    if rel + 1 < end {
      switch p[rel + 1] {
      case UInt8(ascii: "!"):
        what = rel + 3 < end && p[rel + 2] == Chars.minus ? "a comment" : "a declaration"
      case UInt8(ascii: "?"): what = "a processing instruction"
      case UInt8(ascii: "/"): what = "an end tag"
      default: break
      }
    }
    if p[rel] == Chars.amp { what = "an entity reference" }
    return fail(rel, "the file ends inside \(what) that starts here (it may be truncated)")
  }

  /// At the end of the file: the document must be complete.
  private func finish() throws(DataFileError) -> XMLEvent {
    if inCDATA {
      throw cdataTruncated()
    }
    if let top = stack.last {
      let (line, column) = location(of: base + end)
      let innermost = openName(top)
      throw DataFileError(
        path: path, line: line, column: column,
        message:
          "the file ends before <\(innermost)> from line \(self.line(of: top)) is closed "
          + "(it may be truncated)")
    }
    if !rootSeen {
      throw DataFileError(path: path, message: "the file has no XML elements")
    }
    return .endOfDocument
  }
}

enum Chars {
  static let tab: UInt8 = 0x09
  static let lf: UInt8 = 0x0A
  static let cr: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let quote: UInt8 = 0x22
  static let amp: UInt8 = 0x26
  static let apos: UInt8 = 0x27
  static let plus: UInt8 = 0x2B
  static let comma: UInt8 = 0x2C
  static let minus: UInt8 = 0x2D
  static let dot: UInt8 = 0x2E
  static let zero: UInt8 = 0x30
  static let nine: UInt8 = 0x39
  static let semicolon: UInt8 = 0x3B
  static let lt: UInt8 = 0x3C
  static let gt: UInt8 = 0x3E
}
