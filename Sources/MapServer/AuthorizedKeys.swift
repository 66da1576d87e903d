import Foundation
import NIOSSH

/// The public keys allowed to connect, from a file in OpenSSH's authorized_keys format: one key
/// a line (`ssh-ed25519 AAAA… comment`), blank lines and `#` comments skipped.
///
/// Ed25519 and ECDSA (P-256, P-384, P-521) keys are taken. A line that cannot be used is
/// reported and its key not allowed (fail closed): an RSA key (SwiftNIO's SSH has no RSA), a
/// damaged key, and a line with options (`from="…"`, `command="…"`, …), whose restrictions the
/// server could not keep.
public struct AuthorizedKeys: Sendable {
  /// The allowed keys.
  public let keys: Set<NIOSSHPublicKey>
  /// Lines that were not taken, each as `path:line: why`.
  public let problems: [KeyFileError]

  static let types: Set<String> = [
    "ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
  ]
  /// An authorized_keys file larger than this is refused (1 MiB: thousands of keys).
  static let maxFileSize = 1 << 20

  /// Reads `path`. A file that cannot be read, or holds no usable key, is an error.
  public init(path: String) throws(KeyFileError) {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw KeyFileError(
        path: path, line: nil,
        message: errno == ENOENT ? "no such file" : "cannot read: \(errnoText())")
    }
    defer { try? handle.close() }
    let data = ((try? handle.read(upToCount: Self.maxFileSize + 1)) ?? nil) ?? Data()
    guard data.count <= Self.maxFileSize else {
      throw KeyFileError(path: path, line: nil, message: "larger than 1 MiB")
    }
    try self.init(text: String(decoding: data, as: UTF8.self), path: path)
  }

  /// Reads authorized_keys text (`path` names it in messages).
  public init(text: String, path: String) throws(KeyFileError) {
    var keys = Set<NIOSSHPublicKey>()
    var problems: [KeyFileError] = []
    for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.isEmpty || line.hasPrefix("#") { continue }
      func problem(_ message: String) {
        problems.append(KeyFileError(path: path, line: number + 1, message: message))
      }
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      let type = String(fields[0])
      guard Self.types.contains(type) else {
        if type == "ssh-rsa" || type == "ssh-dss" {
          problem("an \(type) key: not supported (use an Ed25519 or ECDSA key)")
        } else if fields.count > 1, Self.types.contains(String(fields[1])) || fields[1] == "ssh-rsa"
        {
          problem("a key with options: not supported, so not allowed")
        } else {
          problem("not a public key line")
        }
        continue
      }
      guard fields.count >= 2,
        let key = try? NIOSSHPublicKey(openSSHPublicKey: "\(type) \(fields[1])")
      else {
        problem("a damaged \(type) key")
        continue
      }
      keys.insert(key)
    }
    guard !keys.isEmpty else {
      let why = problems.first.map { " (\($0.description))" } ?? ""
      throw KeyFileError(path: path, line: nil, message: "no usable public key\(why)")
    }
    self.keys = keys
    self.problems = problems
  }
}
