import Glibc

/// Per thread, behind a pthread key: which loop it drives. Strong, and broken by the
/// loop's `close`, by binding the thread to another loop, or by the thread's exit: a weak
/// reference would give the loop a side table, memory that leak checkers cannot trace.
/// Locked: `close` clears it from any thread (and a forked child may close a parent's loop,
/// so the lock is held across fork).
final class RunLoopBinding {
  private let slot = ForkSafeMutex<RunLoopScheduler?>(nil)

  func get() -> RunLoopScheduler? { slot.withLock { $0 } }

  /// Returns the loop recorded before, for the caller to release outside its locks.
  func set(_ loop: RunLoopScheduler) -> RunLoopScheduler? {
    slot.withLock { s -> RunLoopScheduler? in
      defer { s = loop }
      return s
    }
  }

  /// Forgets the loop only if it is still the one recorded (the thread may have moved on).
  func clear(_ loop: RunLoopScheduler) {
    let old = slot.withLock { s -> RunLoopScheduler? in
      guard s === loop else { return nil }
      defer { s = nil }
      return s
    }
    _ = old
  }

  fileprivate static let key: pthread_key_t = {
    var key = pthread_key_t()
    let rc = pthread_key_create(&key) { p in
      if let p { Unmanaged<RunLoopBinding>.fromOpaque(p).release() }
    }
    precondition(rc == 0, "pthread_key_create failed")
    return key
  }()

  /// The calling thread's record, made on first use.
  static var here: RunLoopBinding {
    if let p = pthread_getspecific(key) { return Unmanaged<RunLoopBinding>.fromOpaque(p).takeUnretainedValue() }
    let b = RunLoopBinding()
    pthread_setspecific(key, Unmanaged.passRetained(b).toOpaque())
    return b
  }
}

extension RunLoopScheduler {
  /// The calling thread's loop: the main loop on the main thread, else the loop last bound
  /// to this thread while it is alive and still bound here (blocking calls run it).
  public static var current: RunLoopScheduler? {
    if MainThread.isCurrent { return main }
    guard let p = pthread_getspecific(RunLoopBinding.key) else { return nil }
    guard let loop = Unmanaged<RunLoopBinding>.fromOpaque(p).takeUnretainedValue().get(), loop.isLoopThread
    else { return nil }
    return loop
  }
}
