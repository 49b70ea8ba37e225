import Glibc

/// Gives each schedule call chain its own thread: a schedule from outside starts a new
/// thread; work that thread's actions schedule on the same scheduler (recursion, periodic
/// ticks, operator timers) stays on it. The thread ends when it has nothing left to run.
public final class NewThreadScheduler: Scheduler, @unchecked Sendable {
  public static let instance = NewThreadScheduler()

  public override func scheduleAfter(_ delay: Int64, _ action: __owned @escaping () -> Void) -> any Disposable {
    let due = MonotonicClock.deadline(after: delay, from: now)
    if let loop = ThreadLoop.current, loop.owner === self {
      let item = ThreadLoop.Item(loop, action)
      loop.insert(item, due: due)
      return item
    }
    let loop = ThreadLoop(owner: self)
    let item = ThreadLoop.Item(loop, action)
    loop.insert(item, due: due)
    loop.start()
    return item
  }
}

/// One NewThreadScheduler thread: a timer queue and a `Monitor`.
final class ThreadLoop: @unchecked Sendable {
  final class Item: ScheduledAction, @unchecked Sendable {
    // Strong: a dispose may race with the thread popping the item and exiting.
    let loop: ThreadLoop
    init(_ loop: ThreadLoop, _ action: @escaping () -> Void) {
      self.loop = loop
      super.init(action)
    }
    override func cancelled() { loop.cancelled() }
  }

  let owner: Scheduler
  private var items = TimerQueue<Item>()
  private let monitor = Monitor()

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
    return key
  }()

  static var current: ThreadLoop? {
    guard let p = pthread_getspecific(key) else { return nil }
    return Unmanaged<ThreadLoop>.fromOpaque(p).takeUnretainedValue()
  }

  init(owner: Scheduler) { self.owner = owner }

  func insert(_ item: Item, due: Int64) {
    monitor.lock()
    items.insert(item, due: due)
    monitor.unlock()
    monitor.signal()
  }

  /// An item was disposed before it ran: it leaves the queue (in sweeps, see TimerQueue),
  /// and the thread looks again (it may have nothing left to wait for).
  func cancelled() {
    monitor.lock()
    items.noteDisposed { $0.isDisposed }
    monitor.unlock()
    monitor.signal()
  }

  func start() {
    var attr = pthread_attr_t()
    pthread_attr_init(&attr)
    pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
    var tid = pthread_t()
    let arg = Unmanaged.passRetained(self).toOpaque()
    let rc = pthread_create(&tid, &attr, { arg in
      let loop = Unmanaged<ThreadLoop>.fromOpaque(arg!).takeRetainedValue()
      loop.main()
      return nil
    }, arg)
    pthread_attr_destroy(&attr)
    precondition(rc == 0, "pthread_create failed")
  }

  private func main() {
    pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
    while let item = next() { item.run() }
    pthread_setspecific(Self.key, nil)
  }

  /// The next due, live item; nil once nothing is left (then the thread ends). Only this
  /// thread adds work while it runs, so an empty queue stays empty.
  private func next() -> Item? {
    monitor.lock()
    defer { monitor.unlock() }
    while let top = items.first {
      if top.item.isDisposed {
        _ = items.popFirst()
        items.droppedDisposed()
        continue
      }
      if top.due <= MonotonicClock.now() {
        _ = items.popFirst()
        return top.item
      }
      monitor.wait(until: top.due)
    }
    return nil
  }
}
