import Foundation
import MapGeometry

/// Makes text from data files safe to show in a terminal.
public enum TextSanitizer {
  /// Returns `s` without control characters and with its ends trimmed (`SafeText.clean`).
  ///
  /// - Tabs and line breaks (LF, CR, CRLF, VT, FF, NEL, U+2028, U+2029) become a space.
  /// - Every other C0 control (U+0000–U+001F), DEL (U+007F) and C1 control (U+0080–U+009F)
  ///   is removed, so an escape sequence such as `ESC [ 2 J` loses its ESC and is shown as
  ///   plain text.
  /// - Unicode bidirectional embeddings, overrides and isolates (U+202A–U+202E,
  ///   U+2066–U+2069) are removed, so text cannot reorder what follows it on screen.
  /// - Leading and trailing whitespace is trimmed.
  public static func clean(_ s: String) -> String {
    SafeText.clean(s)
  }
}
