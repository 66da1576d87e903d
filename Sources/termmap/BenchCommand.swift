/// `termmap bench`: frame-time scenarios measured inside the process.
@MainActor
struct BenchCommand {
  init(arguments: [String]) throws {}
  func run() throws -> Int32 { 0 }
}
