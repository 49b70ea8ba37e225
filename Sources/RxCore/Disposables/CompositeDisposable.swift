import Synchronization

/// A group of disposables disposed together. Adding to a disposed composite disposes the
/// new one at once. Items can be removed again by the key `insert` returns.
public final class CompositeDisposable: Cancelable {
  public struct Key: Hashable, Sendable { let raw: UInt64 }

  private struct State {
    var disposed = false
    var nextKey: UInt64 = 0
    var items: [(key: UInt64, disposable: any Disposable)] = []
  }
  private let state = Mutex(State())

  public init() {}

  public init(disposables: [any Disposable]) {
    state.withLock { s in
      for d in disposables {
        s.items.append((s.nextKey, d))
        s.nextKey += 1
      }
    }
  }

  public var isDisposed: Bool { state.withLock { $0.disposed } }

  public var count: Int { state.withLock { $0.items.count } }

  /// Adds `disposable`; nil (and `disposable` disposed) if this composite is disposed.
  @discardableResult
  public func insert(_ disposable: any Disposable) -> Key? {
    let key: UInt64? = state.withLock { s in
      if s.disposed { return nil }
      let k = s.nextKey
      s.nextKey += 1
      s.items.append((k, disposable))
      return k
    }
    guard let key else {
      disposable.dispose()
      return nil
    }
    return Key(raw: key)
  }

  /// Removes and disposes the item with `key`, if still present.
  public func remove(for key: Key) {
    let removed: (any Disposable)? = state.withLock { s in
      guard let i = s.items.firstIndex(where: { $0.key == key.raw }) else { return nil }
      return s.items.remove(at: i).disposable
    }
    if let removed = consume removed {  // (`?.dispose()` retains around the call)
      removed.dispose()
      Disposables.recycle(consume removed)
    }
  }

  public func dispose() {
    let items: [(key: UInt64, disposable: any Disposable)]? = state.withLock { s in
      if s.disposed { return nil }
      s.disposed = true
      let items = s.items
      s.items = []
      return items
    }
    for item in items ?? [] { item.disposable.dispose() }
  }
}
