import Foundation
import TomoCore
import TomoStore

/// The follow and block commands: `tomo follow|unfollow|accept|decline|requests|block|unblock`.
enum StoreCommands {
    static let follow = CommandSpec(
        path: ["follow"],
        summary: "Make A follow B (a request, when B approves follows)",
        arguments: [ArgumentSpec("A", "the follower"), ArgumentSpec("B", "the user to follow")],
        discussion: """
        When B approves follows (`tomo user set B --approve-follows on`), the follow waits as a
        request until `tomo accept B A`. Only accepted follows count. Refused when A or B blocks
        the other. Following again changes nothing and says so.

        Example:
          tomo follow alice bob
        """,
        run: { invocation in
            try StoreCommandSupport.change(invocation, sections: [.followPairs, .blocks]) { store, _ throws(Diagnostic) in
                try store.follow(invocation.arguments[0], invocation.arguments[1])
            }
        }
    )

    static let unfollow = CommandSpec(
        path: ["unfollow"],
        summary: "Make A stop following B (or withdraw A's request)",
        arguments: [ArgumentSpec("A", "the follower"), ArgumentSpec("B", "the followed user")],
        discussion: """
        Example:
          tomo unfollow alice bob
        """,
        run: { invocation in
            try StoreCommandSupport.change(invocation, sections: [.followPairs]) { store, _ throws(Diagnostic) in
                try store.unfollow(invocation.arguments[0], invocation.arguments[1])
            }
        }
    )

    static let accept = CommandSpec(
        path: ["accept"],
        summary: "B accepts A's follow request",
        arguments: [ArgumentSpec("B", "the user who approves follows"), ArgumentSpec("A", "who asked to follow B")],
        discussion: """
        `tomo requests B` lists the requests waiting for B.

        Example:
          tomo accept bob alice      # alice now follows bob
        """,
        run: { invocation in
            try StoreCommandSupport.change(invocation, sections: [.followPairs]) { store, _ throws(Diagnostic) in
                try store.accept(invocation.arguments[0], invocation.arguments[1])
            }
        }
    )

    static let decline = CommandSpec(
        path: ["decline"],
        summary: "B declines A's follow request",
        arguments: [ArgumentSpec("B", "the user who approves follows"), ArgumentSpec("A", "who asked to follow B")],
        discussion: """
        The request is removed; A may ask again. With no request waiting this changes nothing.

        Example:
          tomo decline bob alice
        """,
        run: { invocation in
            try StoreCommandSupport.change(invocation, sections: [.followPairs]) { store, _ throws(Diagnostic) in
                try store.decline(invocation.arguments[0], invocation.arguments[1])
            }
        }
    )

    static let requests = CommandSpec(
        path: ["requests"],
        summary: "List the follow requests waiting for B's approval",
        arguments: [ArgumentSpec("B", "the user who approves follows")],
        options: [StoreCommandSupport.jsonOption],
        discussion: """
        Oldest request first. `--json` prints an array of handles.

        Example:
          tomo requests bob --json     # ["alice"]
        """,
        run: { invocation in
            let handle = invocation.arguments[0]
            let (store, _) = try StoreCommandSupport.read(invocation, sections: [.follows])
            _ = try store.requireUser(handle)
            let handles = store.requests(handle)
            if invocation.flag("json") {
                StoreCommandSupport.printJSON(.array(handles.map(JSONValue.string)), on: invocation.console)
            } else {
                StoreCommandSupport.printHandles(handles, emptyMessage: "no follow requests wait for \(handle)", on: invocation.console)
            }
            return 0
        }
    )

    static let block = CommandSpec(
        path: ["block"],
        summary: "A blocks B: ends follows and likes both ways and hides B from A's timeline",
        arguments: [ArgumentSpec("A", "the user who blocks"), ArgumentSpec("B", "the user blocked")],
        discussion: """
        Removes follows and requests in both directions, and B's likes of A's posts and A's of
        B's (so counts and "Liked by" lists drop them), and refuses new follows and likes
        either way; hides B's posts from A's timeline and A's posts from B's; until
        `tomo unblock A B`. Unblocking brings no removed follow or like back.

        Example:
          tomo block alice mallory
        """,
        run: { invocation in
            try StoreCommandSupport.change(invocation, sections: [.followPairs, .likePairs, .blocks]) { store, _ throws(Diagnostic) in
                try store.block(invocation.arguments[0], invocation.arguments[1])
            }
        }
    )

    static let unblock = CommandSpec(
        path: ["unblock"],
        summary: "A stops blocking B",
        arguments: [ArgumentSpec("A", "the user who blocks"), ArgumentSpec("B", "the user blocked")],
        discussion: """
        Follows removed by the block do not come back; B may follow A again.

        Example:
          tomo unblock alice mallory
        """,
        run: { invocation in
            try StoreCommandSupport.change(invocation, sections: [.blocks]) { store, _ throws(Diagnostic) in
                try store.unblock(invocation.arguments[0], invocation.arguments[1])
            }
        }
    )
}
