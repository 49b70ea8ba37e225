import CRxcCore
import Glibc
import Synchronization

/// Which thread is "main": the process's initial thread. The C layer installs a provider
/// (a C constructor records the initial thread at load, and a fork handler re-records it
/// in a child, whose only thread becomes its initial one). Without one (pure Swift use, or
/// before the C layer installed it) the kernel's definition is used: the initial thread is
/// the one whose thread id equals the process id, which also holds in a forked child.
public enum MainThread {
  public typealias Provider = @convention(c) () -> UInt
  private static let provider = Atomic<UInt>(0)  // the function's address; 0: none

  /// Installs the function that returns the main thread's pthread_t.
  public static func install(_ p: Provider) {
    provider.store(UInt(bitPattern: unsafeBitCast(p, to: UnsafeRawPointer.self)), ordering: .releasing)
  }

  public static var isCurrent: Bool {
    let bits = provider.load(ordering: .acquiring)
    if bits != 0, let raw = UnsafeRawPointer(bitPattern: bits) {
      return unsafeBitCast(raw, to: Provider.self)() == UInt(pthread_self())
    }
    return rxc_thread_is_initial() != 0
  }
}
