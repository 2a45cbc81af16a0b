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
        // C libraries from Debian, found through pkg-config.
        .systemLibrary(name: "CYaml", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        // YAML text to a tree of located nodes (libyaml's event API), YAML 1.2 core schema.
        .target(name: "TomoYAML", dependencies: ["TomoCore", "CYaml"]),
        // Markdown to safe HTML (libcmark without raw HTML or unsafe links).
        .target(name: "TomoMarkdown", dependencies: ["CCmark", "TomoCore"]),
        // Content files (site.yaml, profiles, free pages) to validated models.
        // (TomoTheme for the brands links: takes, the theme's icons/brands.tsv; CICUShim for
        // both spellings of an internationalized domain in a private e-mail address.)
        .target(name: "TomoContent", dependencies: ["TomoCore", "TomoYAML", "TomoMarkdown", "TomoTheme", "CICUShim"]),
        // The JSON store: the social graph and its rules; knows nothing of HTML or templates.
        .target(name: "TomoStore", dependencies: ["TomoCore"]),
        // The default theme (top-level templates/) compiled into the binary.
        .target(name: "TomoTheme", plugins: ["EmbedTheme"]),
        .executableTarget(name: "ThemeEmbedder", dependencies: ["TomoCore"]),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["ThemeEmbedder"]),
        // C library calls Swift cannot reach directly, and the allocator: mimalloc (Debian's
        // libmimalloc), linked here, takes malloc and free over for the whole process, the Swift
        // runtime's and the C libraries' too. A build allocates and frees millions of small
        // strings and arrays on both cores: with mimalloc a one-edit build takes about 7% less CPU time
        // and 10% less memory than with glibc's allocator (docs/benchmarks.md).
        .target(name: "CSystem", linkerSettings: [.linkedLibrary("mimalloc")]),
        // The build pipeline: content models → page views → rendered pages → output folder.
        .target(name: "TomoSite", dependencies: ["TomoCore", "TomoContent", "TomoStore", "TomoImages", "TomoTemplates", "TomoTheme", "CICUShim", "TomoQR"]),
        // `tomo serve`: the site session, the server and the file watcher put together.
        .target(name: "TomoPreview", dependencies: ["TomoCore", "TomoContent", "TomoSite", "TomoServer", "CSystem"]),
        // Argument parsing and commands; the `tomo` executable only calls it.
        .target(name: "TomoCLI", dependencies: ["TomoCore", "TomoYAML", "TomoTemplates", "TomoContent", "TomoImages", "TomoSite", "TomoStore", "TomoPreview"]),
        .executableTarget(name: "tomo", dependencies: ["TomoCLI", "TomoSite", "CSystem"]),
        // libvips through a fixed-argument C shim (its API is variadic), which opens the library when
        // an image is first made: CVips only carries the include paths of glib, which libvips'
        // headers need (pkg-config's `vips` would link libvips and its hundred libraries into
        // tomo, loaded at every start).
        .systemLibrary(name: "CVips", pkgConfig: "gobject-2.0", providers: [.apt(["libvips-dev"])]),
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        // Responsive thumbnails: orient, strip metadata, encode WebP/JPEG, cache by content hash.
        .target(name: "TomoImages", dependencies: ["TomoCore", "CVipsShim"]),
        // libmicrohttpd (HTTP/1.1) and zlib (gzip) from Debian; a C shim for MHD's variadic start.
        .systemLibrary(name: "CMicrohttpd", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CMicrohttpdShim", dependencies: ["CMicrohttpd"]),
        // ICU (CLDR plural rules, dates in a language) through a shim: its C functions are macros.
        // pkg-config icu-i18n requires icu-uc, so one name brings both.
        .systemLibrary(name: "CICU", pkgConfig: "icu-i18n", providers: [.apt(["libicu-dev"])]),
        .target(name: "CICUShim", dependencies: ["CICU"]),
        // The preview server (snapshot in memory, live reload over SSE) and the inotify file watcher.
        .target(name: "TomoServer", dependencies: ["TomoCore", "CMicrohttpd", "CMicrohttpdShim", "CZlib", "CSystem"]),
        // libqrencode from Debian: a profile's address as a QR code's module matrix, written as SVG.
        .systemLibrary(name: "CQrencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "TomoQR", dependencies: ["CQrencode"]),
        .executableTarget(
            name: "tomo-bench",
            dependencies: ["TomoTemplates", "TomoCore", "TomoImages", "TomoSite", "TomoServer", "TomoPreview"],
            path: "Benchmarks/TomoBench"
        ),
        .executableTarget(
            name: "tomo-store-bench",
            dependencies: ["TomoStore", "TomoCore"],
            path: "Benchmarks/StoreBench"
        ),
        .testTarget(name: "TomoCoreTests", dependencies: ["TomoCore", "TomoTestSupport"]),
        .testTarget(name: "TomoTemplatesTests", dependencies: ["TomoTemplates", "TomoTestSupport"]),
        .testTarget(name: "TomoYAMLTests", dependencies: ["TomoYAML", "TomoCore"]),
        .testTarget(name: "TomoMarkdownTests", dependencies: ["TomoMarkdown"]),
        .testTarget(name: "TomoContentTests", dependencies: ["TomoContent", "TomoCore", "TomoTestSupport"]),
        .testTarget(name: "TomoThemeTests", dependencies: ["TomoTheme", "TomoTemplates", "TomoTestSupport"]),
        .testTarget(name: "TomoSiteTests", dependencies: ["TomoSite", "TomoCore", "TomoContent", "TomoStore", "TomoTestSupport"]),
        .testTarget(name: "TomoCLITests", dependencies: ["TomoCLI", "TomoCore", "TomoStore", "TomoSite", "TomoTestSupport"]),
        .testTarget(name: "TomoStoreTests", dependencies: ["TomoStore", "TomoCore", "TomoTestSupport"]),
        .testTarget(name: "TomoImagesTests", dependencies: ["TomoImages", "TomoCore", "TomoTestSupport"], exclude: ["Fixtures"]),
        // What the test targets share: the temporary folder that always removes itself, a raw
        // loopback HTTP client (the server's and the preview's tests) and a seeded random number
        // generator for the tests that draw their cases. Only test targets depend on it.
        .target(name: "TomoTestSupport", path: "Tests/TomoTestSupport"),
        .testTarget(name: "TomoPreviewTests", dependencies: ["TomoPreview", "TomoTestSupport"]),
        .testTarget(name: "TomoQRTests", dependencies: ["TomoQR"]),
        .testTarget(name: "TomoServerTests", dependencies: ["TomoServer", "TomoCore", "CZlib", "TomoTestSupport"]),
    ]
)

