import Foundation
import TomoCLI

exit(TomoCommandLine.run(Array(CommandLine.arguments.dropFirst())))
