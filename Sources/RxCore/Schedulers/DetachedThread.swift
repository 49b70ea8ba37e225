import Glibc

/// Starts a detached pthread running a closure (the library's own threads in a forked
/// child: ThreadPool and TimerThread).
enum DetachedThread {
  private final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }

  /// Bodies of threads created and not yet running. Held here as well as by the thread's
  /// start argument, which leak checkers do not scan: a process that ends before its new
  /// thread first runs would otherwise report the body as lost.
  private static let starting = ForkSafeMutex<Set<UInt>>([])

  static func start(_ body: @escaping () -> Void) {
    var attr = pthread_attr_t()
    pthread_attr_init(&attr)
    pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
    var tid = pthread_t()
    let arg = Unmanaged.passRetained(Box(body)).toOpaque()
    starting.withLock { _ = $0.insert(UInt(bitPattern: arg)) }
    let rc = pthread_create(&tid, &attr, { arg in
      DetachedThread.starting.withLock { _ = $0.remove(UInt(bitPattern: arg!)) }
      Unmanaged<Box>.fromOpaque(arg!).takeRetainedValue().body()
      return nil
    }, arg)
    pthread_attr_destroy(&attr)
    precondition(rc == 0, "pthread_create failed")
  }
}
