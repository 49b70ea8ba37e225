import Glibc

/// Which thread is "main": the process's initial thread. The C layer installs `provider`
/// (a C constructor records the initial thread at load, and a fork handler re-records it
/// in a child, whose only thread becomes its initial one). Without a provider (pure Swift
/// use, or before the C layer installed it) the kernel's definition is used: the initial
/// thread is the one whose thread id equals the process id, which also holds in a child.
public enum MainThread {
  nonisolated(unsafe) public static var provider: (@convention(c) () -> UInt)?

  public static var isCurrent: Bool {
    if let provider { return provider() == UInt(pthread_self()) }
    return rxcore_gettid() == getpid()
  }
}

/// glibc's gettid() (2.30+), which the Glibc module does not declare.
@_silgen_name("gettid")
private func rxcore_gettid() -> pid_t
