import Foundation
import MapServer
import TestProcesses
import Testing

@Suite("the server's host key and authorized keys")
struct HostKeyTests {
  @Test("a missing host key file is generated with mode 0600; read again it is the same key")
  func generated() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hostkey-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("host_key").path
    let made = try HostKey.loadOrGenerate(path: path)
    #expect(made.generated)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let again = try HostKey.loadOrGenerate(path: path)
    #expect(!again.generated)
    #expect(again.fingerprint == made.fingerprint)
    #expect(made.fingerprint.hasPrefix("SHA256:") && made.fingerprint.count == 50)
    // OpenSSH reads the file we wrote and prints the same fingerprint.
    let listed = dir.appendingPathComponent("listed").path
    #expect(try ChildProcess.run(["ssh-keygen", "-l", "-f", path], stdout: listed) == 0)
    #expect(try String(contentsOfFile: listed, encoding: .utf8).contains(made.fingerprint))
  }

  @Test("a key ssh-keygen made is read, with the fingerprint ssh-keygen gives it")
  func fromSSHKeygen() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hostkey-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("ssh_host_ed25519_key").path
    #expect(try ChildProcess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", path]) == 0)
    let listed = dir.appendingPathComponent("listed").path
    #expect(try ChildProcess.run(["ssh-keygen", "-l", "-f", path], stdout: listed) == 0)
    let key = try HostKey.load(path: path)
    #expect(try String(contentsOfFile: listed, encoding: .utf8).contains(key.fingerprint))
    // An RSA key, an encrypted key and a text file are refused with the reason.
    let rsa = dir.appendingPathComponent("rsa").path
    #expect(
      try ChildProcess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", rsa])
        == 0)
    #expect(throws: KeyFileError.self) { try HostKey.load(path: rsa) }
    do {
      _ = try HostKey.load(path: rsa)
    } catch {
      #expect(error.description.contains("takes an Ed25519 host key"), "\(error)")
    }
    let locked = dir.appendingPathComponent("locked").path
    #expect(
      try ChildProcess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "secret", "-f", locked]) == 0
    )
    do {
      _ = try HostKey.load(path: locked)
      Issue.record("an encrypted key was read")
    } catch {
      #expect(
        error.description
          == "\(locked): the key is encrypted (a host key must be readable without a passphrase)")
    }
  }

  @Test("authorized_keys: usable keys are taken, the rest reported by line")
  func authorizedKeys() throws {
    let text = """
      # keys
      ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice
      ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 bob
      from="10.0.0.1" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl
      ssh-ed25519 AAAA-damaged

      """
    let keys = try AuthorizedKeys(text: text, path: "keys")
    #expect(keys.keys.count == 1)
    #expect(
      keys.problems.map(\.description) == [
        "keys:3: an ssh-rsa key: not supported (use an Ed25519 or ECDSA key)",
        "keys:4: a key with options: not supported, so not allowed",
        "keys:5: a damaged ssh-ed25519 key",
      ])
    #expect(throws: KeyFileError.self) { try AuthorizedKeys(text: "# none\n", path: "keys") }
  }
}
