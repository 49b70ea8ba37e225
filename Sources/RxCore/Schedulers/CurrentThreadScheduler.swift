import Glibc

/// The trampoline: the first action scheduled on a thread runs at once; actions it schedules
/// (directly or through operators) are queued and run, in due-time order, after it returns.
/// Delayed work blocks the thread until it is due, so periodic work is not supported.
///
/// The per-thread queue lives behind a pthread key (RxSwift keeps it in the thread
/// dictionary under a String key, 12% of a short subscription's time); it is created once
/// per thread and freed by the key's destructor when the thread exits.
public final class CurrentThreadScheduler: Scheduler, @unchecked Sendable {
  public static let instance = CurrentThreadScheduler()

  final class ThreadQueue {
    var active = false
    var items = TimerQueue<ScheduledAction>()
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let rc = pthread_key_create(&key) { p in
      if let p { Unmanaged<ThreadQueue>.fromOpaque(p).release() }
    }
    precondition(rc == 0, "pthread_key_create failed")
    return key
  }()

  /// This thread's queue, unretained: the key holds it for as long as the thread lives,
  /// and only this thread uses it (no retain and release per schedule).
  private static var threadQueue: Unmanaged<ThreadQueue> {
    if let p = pthread_getspecific(key) { return Unmanaged<ThreadQueue>.fromOpaque(p) }
    let q = Unmanaged.passRetained(ThreadQueue())
    pthread_setspecific(key, q.toOpaque())
    return q
  }

  /// True when nothing runs on this thread's trampoline, i.e. a schedule would run at once.
  public static var isScheduleRequired: Bool { !threadQueue._withUnsafeGuaranteedRef { $0.active } }

  public override var supportsPeriodic: Bool { false }

  public override var runsActionsInlineNow: Bool { Self.isScheduleRequired }

  public override func schedule(_ action: @escaping () -> Void) -> any Disposable {
    scheduleAfter(0, action)
  }

  /// The trampoline's own path for recurring work: run inline (no disposable to make,
  /// return and let go of) or queued behind the running action.
  override func makeTrigger(_ action: TriggeredAction) -> SchedulerTrigger? { TrampolineTrigger(action, self) }

  final class TrampolineTrigger: SchedulerTrigger {
    let scheduler: CurrentThreadScheduler

    init(_ action: TriggeredAction, _ scheduler: CurrentThreadScheduler) {
      self.scheduler = scheduler
      super.init(action)
    }

    /// Unmanaged: a `let` is retained around a call otherwise. This trigger keeps both
    /// alive; its owner keeps it alive for a queued run too (see `makeTrigger`).
    override func fire() {
      let action = Unmanaged.passUnretained(action)
      // A local inline func: a closure literal here stayed a call of its own per firing.
      @inline(__always) func fire(on s: CurrentThreadScheduler) {
        _ = s.runOrQueue(after: 0, { action._withUnsafeGuaranteedRef { $0.run() } }, queued: {
          { action._withUnsafeGuaranteedRef { $0.run() } }
        })
      }
      Unmanaged.passUnretained(scheduler)._withUnsafeGuaranteedRef(fire)
    }
  }

  public override func scheduleAfter(_ delay: Int64, _ action: __owned @escaping () -> Void) -> any Disposable {
    runOrQueue(after: delay, action, queued: { action }) ?? NopDisposable.shared
  }

  /// Runs `action` at once, with whatever it queues after it, when this thread's trampoline
  /// is idle (nil: nothing is left to dispose); queues `queued()` behind the running action
  /// otherwise (the queued item).
  @inline(__always)
  private func runOrQueue(after delay: Int64, _ action: () -> Void, queued: () -> () -> Void) -> ScheduledAction? {
    Self.threadQueue._withUnsafeGuaranteedRef { q in
      if q.active {
        let item = ScheduledAction.make(queued())
        q.items.insert(item, due: MonotonicClock.deadline(after: delay, from: now))
        return item
      }
      q.active = true
      defer { q.active = false }
      if delay > 0 { MonotonicClock.sleep(until: MonotonicClock.deadline(after: delay, from: now)) }
      action()
      while !q.items.isEmpty, let (due, item) = q.items.popFirst() {
        if !item.isDisposed {
          MonotonicClock.sleep(until: due)
          item.run()
        }
        ScheduledAction.recycle(consume item)
      }
      return nil
    }
  }
}
