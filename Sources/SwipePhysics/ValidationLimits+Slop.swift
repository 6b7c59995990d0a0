extension ValidationLimits {
    /// Distance a pointer may jump between samples regardless of elapsed time, CSS px
    /// (sub-pixel rounding and coalesced events). Fixed at 2.
    public var pointerSlopPx: Double { 2 }
}
