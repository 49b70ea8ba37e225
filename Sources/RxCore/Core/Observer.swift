/// Receives events: the core's observer class. Every sink, subject member and the C layer's
/// observer derives from it, so the event path is one class-method call with no
/// generic-method metadata (RxSwift's generic `ObserverType` witness calls are where most of
/// its time goes). A Swift user does not subclass it: `subscribe(_:)` with an `ObserverType`
/// or `subscribe(onNext:...)` wraps the user's observer in one (`ObserverAdapter`). Its
/// members beyond `on` serve subjects and sinks.
open class Observer<Element> {
  public init() {}

  /// Delivers one event. Callers guarantee the Rx grammar and serialization.
  open func on(_ event: Event<Element>) {}

  /// Delivers the element at `element` as a `.next` event. The hot path of subjects: the
  /// pointer has the same representation for every `Element`, so an override in a concrete
  /// subclass is called directly (no reabstraction thunk) and no `Event` is built.
  open func onNext(at element: UnsafePointer<Element>) {
    on(.next(element.pointee))
  }

  /// True for observers that override `onNext(at:)` in code specialized for their element
  /// (subjects then use it). The default implementation is generic code that looks up
  /// `Event<Element>`'s metadata per call, slower than the `on` a subject would otherwise call.
  ///
  /// A final subclass of `Observer<Value>` that overrides `on` alone gets each `.next` through
  /// a reabstraction thunk (this generic class's `on` takes the event indirectly; the thunk's
  /// reload of what the caller just stored stalls the CPU). Overriding this (true) and
  /// `onNext(at:)` too, subjects and sinks hand it the element by pointer with a direct call
  /// (`ObserverAdapter` does so for a user's observer).
  open var takesNextByPointer: Bool { false }

  /// Delivers the element at `element` to this observer and to those of the next slots of
  /// `run` (`SubjectRun.step(_:ofClass:)`) that it can serve in the same pass, e.g. with the
  /// element converted once; returns how many slots it served, at least 1 (its own, the
  /// first). A subject calls it, instead of `onNext(at:)`, on observers that say
  /// `deliversRuns`.
  open func onNext(at element: UnsafePointer<Element>, run: SubjectRun) -> Int {
    onNext(at: element)
    return 1
  }

  /// The observer a subject may hand this one's `.next` events to directly: this one, or,
  /// for a sink that passes elements on unchanged, its downstream (the sink's own disposed
  /// check is the subject's check of the subscription, which the sink's dispose disposes in
  /// the same call). Asked once, when a subject lists the observer; terminal events and
  /// `dropped()` still come to this one.
  /// (Unmanaged: no retain and release per subscription.)
  open var nextTarget: Unmanaged<Observer<Element>> { .passUnretained(self) }

  /// True for owned members (`attachedToSubject`) that override `onNext(at:run:)`. Asked
  /// once, when a subject takes the observer into its list.
  open var deliversRuns: Bool { false }

  /// Delivers `elements` as `.next` events, in order, stopping once this observer wants no
  /// more events (a replay subject hands a late subscriber its buffer this way). Observers
  /// may override it with one tight loop.
  open func onNext(contentsOf elements: UnsafeBufferPointer<Element>) {
    for element in elements {
      if wantsNoMoreEvents { return }
      on(.next(element))
    }
  }

  /// Called (instead of an event) when the source drops this observer for good without a
  /// terminal event, e.g. a subject that is disposed. Sinks forward it and dispose.
  open func dropped() {}

  /// True once this observer ignores every further event: it is disposed or stopped, or
  /// everything downstream of it is. Synchronous producers poll it, so that a downstream
  /// `take(1)` ends a long loop at once, even before the subscription is fully set up
  /// (its disposable cannot reach the loop yet).
  open var wantsNoMoreEvents: Bool { false }

  /// For an observer a subject holds as an owned member (`attachOwned`): its slot index in
  /// the subject's list, kept by the subject's drain (-1 when not in it). Observers that do
  /// not support that keep the default, which stores nothing. (A computed property, so this
  /// base class has no stored properties: the C layer's subclasses start with their ABI
  /// header.)
  open var subjectSlot: Int {
    get { -1 }
    set {}
  }

  /// Called, inside the subject's serialization, when a subject takes an owned member into
  /// its list. The list holds no reference of its own: the member keeps itself alive until
  /// `detachedFromSubject()` (this default takes one reference for that).
  open func attachedToSubject() { Unmanaged.passUnretained(self).retain() }

  /// Called, inside the subject's serialization, when a subject has let go of an owned
  /// member it had taken into its list (once per `attachedToSubject()`): nothing of that
  /// subject is in flight to it, and nothing will follow. The subject's last access to it
  /// (the member may end its own life here; this default drops the reference taken above).
  open func detachedFromSubject() { Unmanaged.passUnretained(self).release() }
}

extension Observer {
  /// `on(.next(element))`, by pointer where this observer takes it: for a one-off delivery
  /// (a `just`, a scalar pipeline), which asks `takesNextByPointer` each time, as a sink
  /// asks it once.
  @inlinable @inline(__always) public final func deliverNext(_ element: Element) {
    if takesNextByPointer { return _withUnprotectedUnsafePointer(to: element) { onNext(at: $0) } }
    on(.next(element))
  }
}

/// Protocol form, for code that wants to accept any observer.
public protocol ObserverType<Element> {
  associatedtype Element
  func on(_ event: Event<Element>)
}

extension Observer: ObserverType {}

extension ObserverType {
  @inlinable public func onNext(_ element: Element) { on(.next(element)) }
  @inlinable public func onCompleted() { on(.completed) }
  @inlinable public func onError(_ error: any Error) { on(.error(error)) }
}
