import CRxcCore

/// Factory functions, as RxSwift's `Disposables`.
public enum Disposables {
  /// The caller lets go of `disposable`, which it has disposed: a disposer that has torn
  /// down, or a scheduled action that ran or was disposed, that nothing else holds is kept as
  /// this thread's spare (its class's `make` takes it) instead of being freed. (A subject's
  /// subscription is kept by its subject when it leaves the list:
  /// `SubjectSubscription.park`.) Never under ThreadSanitizer (`RXC_TSAN`), which cannot see
  /// the Swift runtime's reference counts and would take the hand-over for a race.
  @inline(__always)
  public static func recycle(_ disposable: consuming any Disposable) {
    #if !RXC_TSAN
      // Moved, never copied: a copy would make the object look shared.
      if ThreadSpare.isKind(Int(RXC_SPARE_DISPOSER), disposable) {
        SinkDisposer.keepAsSpare(move(consume disposable, to: SinkDisposer.self))
      } else if ThreadSpare.isKind(Int(RXC_SPARE_ACTION), disposable) {
        ScheduledAction.keepAsSpare(move(consume disposable, to: ScheduledAction.self))
      }
    #endif
  }

  /// `object`'s reference, moved into a `T` (`unsafeDowncast` would copy it).
  @inline(__always)
  private static func move<T: AnyObject>(_ object: consuming any Disposable, to _: T.Type) -> T {
    Unmanaged<T>.fromOpaque(Unmanaged<AnyObject>.passRetained(consume object).toOpaque()).takeRetainedValue()
  }

  /// A disposable that does nothing (shared instance).
  public static func create() -> any Disposable { NopDisposable.shared }

  /// A disposable that runs `action` once, on first dispose.
  public static func create(with action: @escaping () -> Void) -> any Cancelable {
    AnonymousDisposable(action)
  }

  /// A disposable that disposes both.
  public static func create(_ a: any Disposable, _ b: any Disposable) -> any Cancelable {
    BinaryDisposable(a, b)
  }
}

@_spi(RxC) public final class NopDisposable: Disposable {
  public static let shared = NopDisposable()
  public func dispose() {}
}
