import Glibc

/// Starts a detached pthread running a closure (the library's own threads in a forked
/// child: ThreadPool and TimerThread).
enum DetachedThread {
  static func start(_ body: @escaping () -> Void) {
    final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }
    var attr = pthread_attr_t()
    pthread_attr_init(&attr)
    pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
    var tid = pthread_t()
    let arg = Unmanaged.passRetained(Box(body)).toOpaque()
    let rc = pthread_create(&tid, &attr, { arg in
      Unmanaged<Box>.fromOpaque(arg!).takeRetainedValue().body()
      return nil
    }, arg)
    pthread_attr_destroy(&attr)
    precondition(rc == 0, "pthread_create failed")
  }
}
