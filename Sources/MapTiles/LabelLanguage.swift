/// The language labels are shown in: a code from `--lang` or the config file, or the
/// locale's language.
public enum LabelLanguage {
  /// Whether `code` can be a label language: a language code of 2 or 3 letters, optionally
  /// followed by `-` or `_` and a script or region of 2 to 8 letters or digits (`fi`,
  /// `zh-Hant`, `pt-BR`) — the suffixes of `name:xx` keys.
  public static func isValid(_ code: String) -> Bool {
    let parts = code.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
    guard let first = parts.first, (2...3).contains(first.count),
      first.allSatisfy({ $0.isASCII && $0.isLetter })
    else { return false }
    return parts.dropFirst().allSatisfy { p in
      (2...8).contains(p.count) && p.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
  }

  /// The language of the locale: the first set of `LC_ALL`, `LC_MESSAGES` and `LANG`, its
  /// language part (`fi_FI.UTF-8` gives `fi`); nil for `C` and `POSIX` (and `C.UTF-8`),
  /// none set, or a value that names no language.
  public static func fromLocale(_ environment: [String: String]) -> String? {
    guard
      let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] })
        .first(where: { !$0.isEmpty })
    else { return nil }
    let language = value.prefix { $0 != "_" && $0 != "." && $0 != "@" && $0 != "-" }
    guard language != "C", language != "POSIX" else { return nil }
    let code = language.lowercased()
    return isValid(code) ? code : nil
  }
}
