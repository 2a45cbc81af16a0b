/// A value's fields behind one immutable reference. A site holds tens of thousands of profiles
/// and posts, and its lists of them are copied on every rebuild (an edit replaces one element
/// of a list the last build still holds): copying a reference costs one retain, copying a
/// struct of a dozen strings and arrays costs a dozen.
final class SharedFields<Fields: Sendable & Hashable>: Sendable, Hashable {
    let fields: Fields

    init(_ fields: Fields) {
        self.fields = fields
    }

    static func == (lhs: SharedFields, rhs: SharedFields) -> Bool {
        lhs === rhs || lhs.fields == rhs.fields
    }

    func hash(into hasher: inout Hasher) {
        fields.hash(into: &hasher)
    }
}
