/// What a subject did with an event, decided at call time, so the C layer can map it to a
/// status without any logic of its own.
public enum SubjectOutcome: Sendable {
  /// Queued for delivery (delivered before `on` returns unless another thread is draining).
  case accepted
  /// Dropped: the subject already accepted a stop event (RxSwift ignores these silently).
  case ignoredAfterStop
  /// Dropped: the subject is disposed.
  case afterDispose
}
