"""Decodes the stored trace (`swipes.traceData`, Sources/SwipedeckServer/Storage/TraceCodec.swift)
into the same dict the JSON trace would give, for the Python suites that read the database.

A column is a scale byte k (values M / 10**k, M from zigzag-varint deltas, then a count of exceptions,
each an index and a raw double) or 0xFF (raw little-endian doubles). Python's int / int division is correctly rounded, like Swift's Double(M) / 10^k, so the
floats are the very doubles the server validated."""
import struct


def decode(data):
    data = bytes(data)
    pos = 0

    def byte():
        nonlocal pos
        b = data[pos]
        pos += 1
        return b

    def unsigned():
        value, shift = 0, 0
        while True:
            b = byte()
            value |= (b & 0x7F) << shift
            if b < 0x80:
                return value
            shift += 7

    def column(count):
        nonlocal pos
        k = byte()
        if k == 0xFF:
            values = list(struct.unpack_from(f"<{count}d", data, pos))
            pos += 8 * count
            return values
        m, values = 0, []
        for _ in range(count):
            z = unsigned()
            m += (z >> 1) ^ -(z & 1)
            values.append(m / 10 ** k)
        for _ in range(unsigned()):  # exceptions: index, raw double
            i = unsigned()
            values[i] = struct.unpack_from("<d", data, pos)[0]
            pos += 8
        return values

    assert byte() == 1, "unknown trace encoding"
    count = unsigned()
    flags = byte()
    trace = {"t": column(count), "x": column(count), "y": column(count)}
    for key in ("w", "h", "vw", "vh", "gx", "gy"):
        trace[key] = column(1)[0]
    if flags & 1:
        trace["ox"] = column(1)[0]
    if flags & 2:
        trace["oy"] = column(1)[0]
    assert pos == len(data), "trailing bytes after the trace"
    return trace
