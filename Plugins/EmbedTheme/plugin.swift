import Foundation
import PackagePlugin

/// Compiles the top-level `templates/` folder (the default theme) into Swift source, so the
/// `tomo` binary carries its theme and works from any folder without resource bundles.
@main
struct EmbedTheme: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let theme = context.package.directoryURL.appendingPathComponent("templates")
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedTheme.swift")
        var inputs: [URL] = []
        if let enumerator = FileManager.default.enumerator(at: theme, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in enumerator {
                let isFile = (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) ?? false
                if isFile { inputs.append(url) }
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding the default theme (\(inputs.count) files)",
                executable: try context.tool(named: "ThemeEmbedder").url,
                arguments: [theme.path, output.path],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
