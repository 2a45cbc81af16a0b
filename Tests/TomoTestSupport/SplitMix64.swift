/// A seeded random number generator (SplitMix64): the same seed gives the same numbers on every
/// machine, so a test that draws its cases from one can print the seed of a failure and replay it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An element of `choices` (which must not be empty).
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &self)]
    }

    /// True with probability `chance`.
    public mutating func chance(_ chance: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < chance
    }
}
