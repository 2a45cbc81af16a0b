extension FixedWidthInteger {
    /// `value` rounded down, or the nearest end of the type's range when it lies outside it (0 for
    /// NaN). `Int64(double)` traps on a number too large for it, such as the nanoseconds of a date
    /// after April 2262: conversions of dates and numbers that come from user input use this.
    public init(saturatingFloor value: Double) {
        let floor = value.rounded(.down)
        if let exact = Self(exactly: floor) {
            self = exact
        } else if floor.isNaN {
            self = 0
        } else {
            self = floor < 0 ? .min : .max
        }
    }
}
