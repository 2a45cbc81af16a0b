import Foundation
import TomoCore
import TomoStore

/// `tomo pick|matches|discover`: the dating flow.
enum DatingCommands {
    static let pick = CommandSpec(
        path: ["pick"],
        summary: "A accepts or rejects B in the dating flow",
        arguments: [
            ArgumentSpec("A", "the user who picks"),
            ArgumentSpec("B", "the user picked"),
            ArgumentSpec("DECISION", "accept or reject", type: ValueTypes.decision),
        ],
        discussion: """
        Two users who accept each other are a match (`tomo matches A`). Picking B again with
        the other decision changes it. Refused across a block.

        Example:
          tomo pick alice bob accept
        """,
        run: { invocation in
            // The parser refuses a missing argument before any command runs.
            guard let decision = try invocation.argument(2, ValueTypes.decision) else {
                throw UsageError("missing DECISION", usage: invocation.command.usage)
            }
            return try StoreCommandSupport.change(invocation, sections: [.blocks, .picks]) { store, _ throws(Diagnostic) in
                try store.pick(invocation.arguments[0], invocation.arguments[1], decision)
            }
        }
    )

    static let matches = CommandSpec(
        path: ["matches"],
        summary: "List A's matches: users A accepted who accepted A (none across a block)",
        arguments: [ArgumentSpec("A", "the user")],
        options: [StoreCommandSupport.jsonOption],
        discussion: """
        `--json` prints an array of handles.

        Example:
          tomo matches alice
        """,
        run: { invocation in
            let handle = invocation.arguments[0]
            let (store, _) = try StoreCommandSupport.read(invocation, sections: [.picks, .blocks])
            _ = try store.requireUser(handle)
            let handles = store.matches(handle)
            if invocation.flag("json") {
                StoreCommandSupport.printJSON(.array(handles.map(JSONValue.string)), on: invocation.console)
            } else {
                StoreCommandSupport.printHandles(handles, emptyMessage: "\(handle) has no matches yet", on: invocation.console)
            }
            return 0
        }
    )

    static let discover = CommandSpec(
        path: ["discover"],
        summary: "List users near A of the gender A seeks, nearest first",
        arguments: [ArgumentSpec("A", "the user looking")],
        options: [
            OptionSpec("within", value: "KM", "the radius in kilometres (default 1)", type: ValueTypes.kilometres),
            OptionSpec("limit", value: "N", "show at most N users", type: ValueTypes.count),
            StoreCommandSupport.jsonOption,
        ],
        discussion: """
        Distance is great-circle (haversine). Users A already picked and users in a block with
        A are left out; when nobody is listed, it says why (who near was left out, how far the
        nearest is, who has no location). A needs a location and a gender sought:
          tomo user set alice --location 35.6812,139.7671 --seeking m
        `--json` prints [{"handle", "km"}].

        Example:
          tomo discover alice --within 5 --limit 10
        """,
        run: { invocation in
            let handle = invocation.arguments[0]
            let radius = try invocation.value("within", ValueTypes.kilometres) ?? 1
            let limit = try invocation.value("limit", ValueTypes.count)
            let (store, _) = try StoreCommandSupport.read(invocation, sections: [.picks, .blocks])
            let found = try store.discover(handle, within: radius, limit: limit)
            let console = invocation.console
            if invocation.flag("json") {
                StoreCommandSupport.printJSON(.array(found.map { nearby in
                    .object(["handle": .string(nearby.handle), "km": .double((nearby.kilometres * 1000).rounded() / 1000)])
                }), on: console)
            } else if limit == 0 {
                console.line(console.paint("--limit 0 lists nobody", .dim))
            } else if found.isEmpty {
                console.line(console.paint(try store.whyNobodyIsNear(handle, within: radius), .dim))
            } else {
                for nearby in found { console.line("\(nearby.handle)  \(String(format: "%.2f", nearby.kilometres)) km") }
            }
            return 0
        }
    )
}
