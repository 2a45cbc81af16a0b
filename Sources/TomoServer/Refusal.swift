/// A request the server will not serve, and what it answers instead (a short plain-text body).
struct Refusal: Error, Equatable {
    /// 400, 414, 421 or 501.
    var status: UInt32
    /// One line without its final period: `the request path must start with /`.
    var reason: String

    static func badRequest(_ reason: String) -> Refusal {
        Refusal(status: 400, reason: reason)
    }

    /// The response body: `Bad request: the request path must start with /.`
    var text: String {
        let title = switch status {
        case 414: "URI too long"
        case 421: "Misdirected request"
        case 501: "Not implemented"
        default: "Bad request"
        }
        return "\(title): \(reason).\n"
    }
}
