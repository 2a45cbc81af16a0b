import Foundation
import TomoCLI
import TomoSite

// One command, then the process ends: what a build made is freed by the exit, all at once.
ProcessMemory.leaveToExit()
exit(TomoCommandLine.run(argc: CommandLine.argc, argv: CommandLine.unsafeArgv))
