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
        // The default theme (top-level templates/) compiled into the binary.
        .target(name: "TomoTheme", plugins: ["EmbedTheme"]),
        .executableTarget(name: "ThemeEmbedder"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["ThemeEmbedder"]),
        // Argument parsing and commands; the `tomo` executable only calls it.
        .target(name: "TomoCLI", dependencies: ["TomoCore", "TomoTemplates", "TomoTheme"]),
        .executableTarget(name: "tomo", dependencies: ["TomoCLI"]),
        // libvips through a fixed-argument C shim (its API is variadic); CVips only carries pkg-config flags.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        // Responsive thumbnails: orient, strip metadata, encode WebP/JPEG, cache by content hash.
        .target(name: "TomoImages", dependencies: ["TomoCore", "CVipsShim"]),
        .executableTarget(
            name: "tomo-bench",
            dependencies: ["TomoTemplates", "TomoCore"],
            path: "Benchmarks/TomoBench"
        ),
        .testTarget(name: "TomoCoreTests", dependencies: ["TomoCore"]),
        .testTarget(name: "TomoTemplatesTests", dependencies: ["TomoTemplates"]),
        .testTarget(name: "TomoCLITests", dependencies: ["TomoCLI", "TomoCore"]),
        .testTarget(name: "TomoThemeTests", dependencies: ["TomoTheme", "TomoTemplates"]),
        .testTarget(name: "TomoImagesTests", dependencies: ["TomoImages", "TomoCore"], exclude: ["Fixtures"]),
    ]
)

// The image benchmark (Benchmarks/TomoBench/ImageBenchmark.swift) needs TomoImages; added here
// rather than on the tomo-bench line so branches that add benchmarks merge without conflicts.
package.targets.first { $0.name == "tomo-bench" }?.dependencies.append("TomoImages")
