// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tomo",
    products: [
        .executable(name: "tomo", targets: ["tomo"]),
    ],
    targets: [
        // Located errors, "did you mean", JSON values: used by every other module.
        .target(name: "TomoCore"),
        // Mustache engine; knows nothing of Tomo.
        .target(name: "TomoTemplates", dependencies: ["TomoCore"]),
        // The JSON store: the social graph and its rules; knows nothing of HTML or templates.
        .target(name: "TomoStore", dependencies: ["TomoCore"]),
        // The default theme (top-level templates/) compiled into the binary.
        .target(name: "TomoTheme", plugins: ["EmbedTheme"]),
        .executableTarget(name: "ThemeEmbedder"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["ThemeEmbedder"]),
        // Argument parsing and commands; the `tomo` executable only calls it.
        .target(name: "TomoCLI", dependencies: ["TomoCore", "TomoTemplates", "TomoTheme", "TomoStore"]),
        .executableTarget(name: "tomo", dependencies: ["TomoCLI"]),
        .executableTarget(
            name: "tomo-bench",
            dependencies: ["TomoTemplates", "TomoCore"],
            path: "Benchmarks/TomoBench"
        ),
        .executableTarget(
            name: "tomo-store-bench",
            dependencies: ["TomoStore", "TomoCore"],
            path: "Benchmarks/StoreBench"
        ),
        .testTarget(name: "TomoCoreTests", dependencies: ["TomoCore"]),
        .testTarget(name: "TomoTemplatesTests", dependencies: ["TomoTemplates"]),
        .testTarget(name: "TomoCLITests", dependencies: ["TomoCLI", "TomoCore", "TomoStore"]),
        .testTarget(name: "TomoStoreTests", dependencies: ["TomoStore", "TomoCore"]),
    ]
)
