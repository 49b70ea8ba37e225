import Dispatch

extension DispatchTime {
  /// `now + delay` for Dispatch, with the delay clamped to something Dispatch accepts.
  static func after(_ delay: Int64) -> DispatchTime {
    .now() + .nanoseconds(Int(Swift.min(Swift.max(0, delay), 100 * 365 * 86_400 * 1_000_000_000)))
  }
}
