import CRxc
@_spi(RxC) import RxCore
import Synchronization

/// An rx_disposable. Its sort is its class: a plain token (a subscription, an action, a
/// scheduled item) or one of the containers, which are subclasses.
class DisposableHandle: Handle {
  /// A `var` only so that a handle poisoned under RXC_DEBUG lets go of it (`poisoned`).
  private(set) var disposable: any Disposable
  /// Set by rx_dispose: a disposable that cannot tell (work that already ran, e.g. on a
  /// scheduler that runs it at once) still reads as disposed afterwards.
  private let disposedByCall = Atomic<Bool>(false)

  init(_ disposable: any Disposable) {
    self.disposable = disposable
    super.init(kind: .disposable)
  }

  static func make(_ disposable: any Disposable) -> UnsafeMutablePointer<rx_disposable> {
    DisposableHandle(disposable).cPointer
  }

  var cPointer: UnsafeMutablePointer<rx_disposable> {
    toC().assumingMemoryBound(to: rx_disposable.self)
  }

  var isDisposed: Bool {
    disposedByCall.load(ordering: .acquiring) || ((disposable as? any Cancelable)?.isDisposed ?? false)
  }

  override func poisoned() { disposable = NopDisposable.shared }

  /// rx_dispose on this handle.
  func dispose() {
    disposedByCall.store(true, ordering: .releasing)
    disposable.dispose()
  }

  /// Any rx_disposable: a subscription token (a `ObserverEnd`) or a handle of this class.
  static func from(_ p: UnsafeRawPointer?, _ fn: StaticString, _ arg: StaticString = "disposable")
    -> DisposableRef?
  {
    if let p, Validate.isLive(p, .disposable), let token = ObserverEnd.token(at: p) { return .token(token) }
    return Validate.handle(p, .disposable, as: DisposableHandle.self, fn, arg).map { .handle($0) }
  }

  /// Takes a token the user handed over (to a container, or returned from a callback):
  /// a core disposable that disposes the token's target, with the C reference released.
  static func take(_ p: UnsafeMutablePointer<rx_disposable>?, _ fn: StaticString, _ arg: StaticString = "disposable")
    -> (any Disposable)?
  {
    guard let r = from(p, fn, arg) else { return nil }
    let d = r.disposable
    r.releaseC()
    return d
  }
}

/// What an rx_disposable pointer refers to: a subscription (its observer is the token) or a
/// disposable handle (actions, scheduled work, connections, the containers).
enum DisposableRef {
  case token(ObserverEnd)
  case handle(DisposableHandle)

  var disposable: any Disposable {
    switch self {
    case .token(let o): return o
    case .handle(let h): return h.disposable
    }
  }

  var isDisposed: Bool {
    switch self {
    case .token(let o): return o.isDisposed
    case .handle(let h): return h.isDisposed
    }
  }

  func releaseC() {
    switch self {
    case .token(let o): o.releaseC()
    case .handle(let h): h.releaseC()
    }
  }

  /// Identity with a container handle (a container cannot take itself).
  func isSame(_ other: AnyObject) -> Bool {
    switch self {
    case .token(let o): return o === other
    case .handle(let h): return h === other
    }
  }
}

// The containers are reached through `disposable` (one reference, which RXC_DEBUG's
// poisoning drops); only their rx_*_set/add entry points cast.
final class SerialDisposableHandle: DisposableHandle {
  var serial: SerialDisposable { disposable as! SerialDisposable }
  init() { super.init(SerialDisposable()) }
}

final class SingleAssignmentDisposableHandle: DisposableHandle {
  var single: SingleAssignmentDisposable { disposable as! SingleAssignmentDisposable }
  init() { super.init(SingleAssignmentDisposable()) }
}

final class CompositeDisposableHandle: DisposableHandle {
  var composite: CompositeDisposable { disposable as! CompositeDisposable }
  init() { super.init(CompositeDisposable()) }
}

/// An rx_dispose_bag: releasing its last reference drains it (DisposeBag semantics).
final class DisposeBagHandle: Handle {
  let bag = DisposeBag()
  init() { super.init(kind: .disposeBag) }
  override func destroyed() { bag.drain() }
}
