import Foundation
import TomoCore
import TomoTemplates

// Release-build benchmarks. `tomo-bench` runs them all; `tomo-bench templates` one of them.
// Figures are printed with the work that produced them; compare ratios from one run, since
// this machine is shared and absolute times are noisy.

let requested = Set(CommandLine.arguments.dropFirst())
let benchmarks: [(name: String, run: () throws -> Void)] = [
    ("templates", TemplateBenchmark.run),
    ("images", ImageBenchmark.run),
    ("cards", CardBenchmark.run),
    ("site", SiteBenchmark.run),
    ("reload", ReloadBenchmark.run),
    ("server", ServerBenchmark.run),
]
for benchmark in benchmarks where requested.isEmpty || requested.contains(benchmark.name) {
    do {
        try benchmark.run()
    } catch {
        FileHandle.standardError.write(Data("tomo-bench \(benchmark.name): \(error)\n".utf8))
        exit(1)
    }
}
