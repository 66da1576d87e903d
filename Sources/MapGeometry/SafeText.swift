import Foundation

/// Makes text from files, servers and libraries safe to print on a terminal. It lives in the
/// module every other one imports, so there is one implementation: MapData's `TextSanitizer`,
/// the tile sources' error descriptions and the config file's errors all use it.
public enum SafeText {
  /// Returns `s` without control characters and with its ends trimmed.
  ///
  /// - Tabs and line breaks (LF, CR, CRLF, VT, FF, NEL, U+2028, U+2029) become a space.
  /// - Every other C0 control (U+0000–U+001F), DEL (U+007F) and C1 control (U+0080–U+009F)
  ///   is removed, so an escape sequence such as `ESC ] 0 ; title BEL` loses its ESC and BEL
  ///   and is shown as plain text.
  /// - Unicode bidirectional embeddings, overrides and isolates (U+202A–U+202E,
  ///   U+2066–U+2069) are removed, so text cannot reorder what follows it on screen.
  /// - Leading and trailing whitespace is trimmed.
  public static func clean(_ s: String) -> String {
    let utf8 = s.utf8
    // Fast path: printable ASCII with no space at either end is returned as it is.
    if utf8.first != 0x20 && utf8.last != 0x20 && utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      return s
    }
    var scalars = String.UnicodeScalarView()
    var previousWasCR = false
    for scalar in s.unicodeScalars {
      defer { previousWasCR = scalar == "\r" }
      switch scalar.value {
      case 0x0A where previousWasCR:
        continue  // CRLF is one line break
      case 0x09...0x0D, 0x85, 0x2028, 0x2029:
        scalars.append(" ")
      case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
        continue
      default:
        scalars.append(scalar)
      }
    }
    return String(scalars).trimmingCharacters(in: .whitespaces)
  }
}
