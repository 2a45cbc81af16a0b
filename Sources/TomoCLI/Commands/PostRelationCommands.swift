import Foundation
import TomoCore
import TomoStore

/// `tomo like|unlike|report|reports|post hide|post unhide`: what users and moderators do to posts.
enum PostRelationCommands {
    static let like = CommandSpec(
        path: ["like"],
        summary: "U likes a post",
        arguments: [ArgumentSpec("U", "the user who likes"), ArgumentSpec("POST", "the post id, HANDLE/SLUG")],
        discussion: """
        One like per user and post: liking again changes nothing and says so. Refused when the
        post does not exist, is not public, is a draft or hidden, its owner is not a registered
        user, or U and its owner are in a block, either way.

        Example:
          tomo like bob alice/sunset
        """,
        run: { invocation in
            let post = try PostID(parsing: invocation.arguments[1])
            let visibility = try StoreCommandSupport.visibility(of: post, invocation)
            return try StoreCommandSupport.change(invocation, sections: [.likePairs, .blocks, .hidden]) { store, _ throws(Diagnostic) in
                try store.like(invocation.arguments[0], post, visibility: visibility)
            }
        }
    )

    static let unlike = CommandSpec(
        path: ["unlike"],
        summary: "U takes back a like",
        arguments: [ArgumentSpec("U", "the user who liked"), ArgumentSpec("POST", "the post id, HANDLE/SLUG")],
        discussion: """
        Example:
          tomo unlike bob alice/sunset
        """,
        run: { invocation in
            let post = try PostID(parsing: invocation.arguments[1])
            return try StoreCommandSupport.change(invocation, sections: [.likePairs]) { store, _ throws(Diagnostic) in
                try store.unlike(invocation.arguments[0], post)
            }
        }
    )

    static let report = CommandSpec(
        path: ["report"],
        summary: "U reports a post to the site's moderators",
        arguments: [ArgumentSpec("U", "the user who reports"), ArgumentSpec("POST", "the post id, HANDLE/SLUG")],
        options: [OptionSpec("reason", value: "TEXT", "what is wrong with the post", required: true, kind: .someText)],
        discussion: """
        Reports are private: `tomo reports` lists them, `tomo post hide POST` acts on them.
        One report per user and post: reporting it again with another reason replaces the
        reason (the report keeps its date).

        Example:
          tomo report bob alice/sunset --reason "not her photo"
        """,
        run: { invocation in
            let post = try PostID(parsing: invocation.arguments[1])
            let visibility = try StoreCommandSupport.visibility(of: post, invocation)
            return try StoreCommandSupport.change(invocation, sections: [.reports]) { store, _ throws(Diagnostic) in
                try store.report(invocation.arguments[0], post, reason: invocation.option("reason") ?? "", visibility: visibility)
            }
        }
    )

    static let reports = CommandSpec(
        path: ["reports"],
        summary: "List the reports, oldest first",
        options: [StoreCommandSupport.jsonOption],
        discussion: """
        `--json` prints [{"user", "post", "reason", "created"}].

        Example:
          tomo reports
        """,
        run: { invocation in
            let (store, _) = try StoreCommandSupport.read(invocation, sections: [.reports, .hidden])
            let console = invocation.console
            if invocation.flag("json") {
                StoreCommandSupport.printJSON(.array(store.reports.map { report in
                    .object(["user": .string(report.user), "post": .string(report.post), "reason": .string(report.reason), "created": .string(report.created)])
                }), on: console)
            } else if store.reports.isEmpty {
                console.line(console.paint("no reports", .dim))
            } else {
                for report in store.reports {
                    let hidden = store.isHidden(report.post) ? console.paint(" (hidden)", .dim) : ""
                    console.line("\(report.created)  \(report.user) reported \(report.post)\(hidden): \(report.reason)")
                }
            }
            return 0
        }
    )

    static let hide = CommandSpec(
        path: ["post", "hide"],
        summary: "Keep a post out of the site until `tomo post unhide`",
        arguments: [ArgumentSpec("POST", "the post id, HANDLE/SLUG")],
        discussion: """
        The post file stays; the build leaves the post out of every page, feed and count.

        Example:
          tomo post hide alice/sunset
        """,
        run: { invocation in
            let post = try PostID(parsing: invocation.arguments[0])
            let visibility = try StoreCommandSupport.visibility(of: post, invocation)
            return try StoreCommandSupport.change(invocation, sections: [.hidden]) { store, _ throws(Diagnostic) in
                try store.hidePost(post, visibility: visibility)
            }
        }
    )

    static let unhide = CommandSpec(
        path: ["post", "unhide"],
        summary: "Show a hidden post again",
        arguments: [ArgumentSpec("POST", "the post id, HANDLE/SLUG")],
        discussion: """
        Example:
          tomo post unhide alice/sunset
        """,
        run: { invocation in
            let post = try PostID(parsing: invocation.arguments[0])
            return try StoreCommandSupport.change(invocation, sections: [.hidden]) { store, _ in store.unhidePost(post) }
        }
    )
}
