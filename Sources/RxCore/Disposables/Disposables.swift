/// Factory functions, as RxSwift's `Disposables`.
public enum Disposables {
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

public final class NopDisposable: Disposable {
  public static let shared = NopDisposable()
  public func dispose() {}
}
