extension Duration {
    /// The duration in seconds, fractions included: what timings print and what a timeout or a
    /// delay given in seconds takes.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
