import Foundation

/// Plain text from HTML: KML descriptions, tile sources' attributions (`<a href=…>OpenStreetMap</a>`).
public enum HTMLText {
  /// Tags removed (line-breaking ones become spaces), common entities decoded, white space
  /// collapsed, then sanitized.
  public static func plain(_ html: String) -> String {
    var out = ""
    var i = html.startIndex
    // Once a "<" finds no ">" after it, no later one can: they stay text without another
    // search, so the scan is linear however many unclosed "<" there are.
    var closeRemains = true
    while i < html.endIndex {
      let c = html[i]
      if c == "<" && closeRemains {
        if let close = html[i...].firstIndex(of: ">") {
          out.append(" ")
          i = html.index(after: close)
          continue
        }
        closeRemains = false
      } else if c == "&" {
        if let semi = html[i...].prefix(10).firstIndex(of: ";") {
          let name = String(html[html.index(after: i)..<semi])
          if let decoded = entity(name) {
            out.append(decoded)
            i = html.index(after: semi)
            continue
          }
        }
      }
      out.append(c)
      i = html.index(after: i)
    }
    let words = SafeText.clean(out).split(whereSeparator: { $0 == " " || $0 == "\u{A0}" })
    return words.joined(separator: " ")
  }

  private static func entity(_ name: String) -> String? {
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos", "#39": return "'"
    case "nbsp": return " "
    case "copy": return "©"
    default:
      if name.hasPrefix("#x") || name.hasPrefix("#X"), let v = UInt32(name.dropFirst(2), radix: 16),
        let s = Unicode.Scalar(v)
      {
        return String(s)
      }
      if name.hasPrefix("#"), let v = UInt32(name.dropFirst()), let s = Unicode.Scalar(v) {
        return String(s)
      }
      return nil
    }
  }
}
