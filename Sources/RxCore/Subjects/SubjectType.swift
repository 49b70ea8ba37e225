/// What multicasting needs of a subject: an observable side to subscribe to and an observer
/// side to feed. Every subject conforms.
public protocol SubjectType<Element>: AnyObject {
  associatedtype Element
  func asObservable() -> Observable<Element>
  func on(_ event: Event<Element>)
}
