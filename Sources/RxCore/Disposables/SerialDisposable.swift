/// Holds one disposable at a time; setting a new one disposes the previous one. Once
/// disposed, whatever is set is disposed at once.
public final class SerialDisposable: Cancelable {
  // Guarded by `lock` (a swap of one reference: no allocation, unlike a Mutex). Disposing
  // happens outside it.
  private let lock = SpinLock()
  private var slot = DisposableSlot()
  /// Counts the replacements, so `setScheduled` can tell whether its slot is still the
  /// current one without a slot object of its own.
  private var generation: UInt = 0

  public init() {}

  public var isDisposed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return slot.disposed
  }

  public var disposable: (any Disposable)? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return slot.held
    }
    set { set(newValue) }
  }

  /// (`new` consumed: the slot takes the caller's reference, no retain of its own.)
  public func set(_ new: consuming (any Disposable)?) {
    lock.lock()
    if slot.disposed {
      lock.unlock()
      new?.dispose()
      return
    }
    let old = slot.held.take()
    slot.held = consume new
    generation &+= 1
    lock.unlock()
    guard let old = consume old else { return }
    old.dispose()
    Disposables.recycle(consume old)
  }

  /// Disposes the current one and leaves the slot empty; the ticket `fill` needs.
  @usableFromInline
  func reserve() -> UInt {
    lock.lock()
    let old = slot.held.take()
    generation &+= 1
    let ticket = generation
    lock.unlock()
    if let old = consume old {
      old.dispose()
      Disposables.recycle(consume old)
    }
    return ticket
  }

  /// Makes `new` the current one if nothing replaced the slot `reserve` emptied, else (or
  /// once disposed) disposes it. (`new` consumed, as in `set`: a timer armed per event would
  /// otherwise pay a retain and a release of it.)
  @usableFromInline
  func fill(_ new: consuming any Disposable, ticket: UInt) {
    lock.lock()
    if !slot.disposed && generation == ticket {
      slot.held = consume new
      lock.unlock()
      return
    }
    lock.unlock()
    new.dispose()
  }

  public func dispose() {
    // (Not `old?.dispose()`: that retains and releases it around the call.)
    lock.lock()
    let old = slot.disposeOnce()
    lock.unlock()
    guard let old else { return }
    old.dispose()
    Disposables.recycle(consume old)
  }
}
