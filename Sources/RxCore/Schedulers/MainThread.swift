import Glibc
import Synchronization

/// Which thread is "main": the process's initial thread. Pure Swift cannot see that thread
/// at load time, so the C layer installs `provider` (a C constructor records it, and a
/// fork handler re-records it in a child, whose only thread becomes its initial one).
/// Without a provider, the first thread to ask is taken as main (pure-Swift embedders
/// should call `record()` from main early).
public enum MainThread {
  nonisolated(unsafe) public static var provider: (@convention(c) () -> UInt)?
  private static let fallback = Atomic<UInt>(0)

  /// Records the calling thread as main (only used when no provider is installed).
  public static func record() { fallback.store(UInt(pthread_self()), ordering: .releasing) }

  public static var isCurrent: Bool {
    let me = UInt(pthread_self())
    if let provider { return provider() == me }
    var t = fallback.load(ordering: .acquiring)
    if t == 0 {
      let r = fallback.compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing)
      t = r.exchanged ? me : r.original
    }
    return t == me
  }
}
