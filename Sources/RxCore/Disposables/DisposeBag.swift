import Synchronization

/// Collects disposables and disposes them all on `drain` or when the bag goes away.
/// Unlike RxSwift's, a drained bag stays usable.
public final class DisposeBag {
  private let items = Mutex<[any Disposable]>([])

  public init() {}

  public func insert(_ disposable: any Disposable) {
    items.withLock { $0.append(disposable) }
  }

  /// Disposes everything in the bag, outside the lock.
  public func drain() {
    let taken = items.withLock { items -> [any Disposable] in
      let t = items
      items = []
      return t
    }
    for d in taken { d.dispose() }
  }

  deinit { drain() }
}

extension Disposable {
  public func disposed(by bag: DisposeBag) { bag.insert(self) }
}
