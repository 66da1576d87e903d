import Foundation

/// A problem found while reading a data file, located as precisely as the problem allows.
///
/// Its `description` is always a single line in the form editors and compilers use:
/// `path:line:column: message`, `path:line: message`, `path: byte N: message` or
/// `path: message`. Any file text quoted in `message` has been passed through
/// ``TextSanitizer`` so that printing an error cannot drive the terminal.
public struct DataFileError: Error, Sendable, CustomStringConvertible, Hashable {
  /// The path of the file as given by the caller.
  public var path: String
  /// The 1-based line the problem is on, when one applies.
  public var line: Int?
  /// The 1-based column (in Unicode scalars from the start of the line), when one applies.
  public var column: Int?
  /// The 0-based byte offset from the start of the file, for problems that have no line.
  public var byteOffset: Int?
  /// What is wrong, without the location.
  public var message: String

  /// An error in a file, located by line and column or by byte offset when known.
  public init(
    path: String, line: Int? = nil, column: Int? = nil, byteOffset: Int? = nil, message: String
  ) {
    self.path = path
    self.line = line
    self.column = column
    self.byteOffset = byteOffset
    self.message = message
  }

  public var description: String {
    let shownPath = TextSanitizer.clean(path)
    // Messages are built from sanitized text, but clean again so the one-line promise holds
    // for errors made by other code too.
    let text = TextSanitizer.clean(message)
    if let line {
      if let column { return "\(shownPath):\(line):\(column): \(text)" }
      return "\(shownPath):\(line): \(text)"
    }
    if let byteOffset { return "\(shownPath): byte \(byteOffset): \(text)" }
    return "\(shownPath): \(text)"
  }
}
