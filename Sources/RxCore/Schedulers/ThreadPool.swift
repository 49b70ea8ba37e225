/// Runs blocks, in submission order, on up to `width` threads of its own (1: one block at a
/// time, in order). Threads start when work arrives and none is idle, and end after a
/// short idle spell, so a pool nobody uses holds no thread. The schedulers use it in a
/// forked child, where libdispatch's threads are gone for good.
final class ThreadPool: @unchecked Sendable {
  let width: Int
  private let monitor = Monitor()
  private var queue = RingBuffer<() -> Void>()
  private var threads = 0
  private var idle = 0     // threads waiting and not yet woken
  private var wakeups = 0  // signals sent to idle threads and not yet taken
  private static let idleNanoseconds: Int64 = 200_000_000

  init(width: Int) { self.width = Swift.max(1, width) }

  func async(_ work: @escaping () -> Void) {
    monitor.lock()
    queue.append(work)
    var start = false
    if idle > 0 {
      idle -= 1
      wakeups += 1
      monitor.signal()
    } else if threads < width {
      threads += 1
      start = true
    }
    monitor.unlock()
    // The thread holds the pool until it ends.
    if start { DetachedThread.start { [self] in serve() } }
  }

  private func serve() {
    monitor.lock()
    while true {
      if let work = queue.popFirst() {
        monitor.unlock()
        work()
        monitor.lock()
        continue
      }
      idle += 1
      let signaled = monitor.wait(until: MonotonicClock.now() + Self.idleNanoseconds)
      if wakeups > 0 {
        wakeups -= 1  // the signaler took us off the idle count
      } else {
        idle -= 1
      }
      if !signaled && queue.isEmpty { break }
    }
    threads -= 1
    monitor.unlock()
  }
}
