@_spi(RxC) import RxCore

// rxc.h section 11, resource accounting.

@c(rx_debug_live_objects)
public func rx_debug_live_objects() -> Int64 { Int64(Resources.total) }
