// rx:value-leaf super=run
/// RxSwift's generate: `initialState`, then `iterate` of the previous state, each emitted
/// while `condition` holds for it, one per action on `scheduler` (see
/// `RecursiveScheduling`); completes at the first state that fails `condition`. Every
/// subscription starts again from `initialState`; a thrown error fails it.
class GenerateObservable<State>: ParameterProducer<State, Generation<State>> {
  override func run(_ observer: Observer<State>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = GenerateSink(parent: self, observer: observer, cancel: cancel)
    return (sink, RecursiveScheduling.start(on: parameter.scheduler) { sink.step() })
  }
}

/// What generate starts from, how it goes on, and where it runs.
struct Generation<State> {
  let initialState: State
  let condition: (State) throws -> Bool
  let iterate: (State) throws -> State
  let scheduler: Scheduler
}

final class GenerateSink<State>: SteppingSink<State> {
  let condition: (State) throws -> Bool
  let iterate: (State) throws -> State
  var state: State
  var first = true  // steps never overlap: each is scheduled after the previous returned

  init(parent: GenerateObservable<State>, observer: Observer<State>, cancel: any Cancelable) {
    condition = parent.parameter.condition
    iterate = parent.parameter.iterate
    state = parent.parameter.initialState
    super.init(observer: observer, cancel: cancel)
  }

  /// Emits the next state, or ends; false when no step should follow.
  final func step() -> Bool {
    guard mayStep() else { return false }
    do {
      if first { first = false } else { state = try iterate(state) }
      guard try condition(state) else {
        forwardTerminal(.completed)
        return false
      }
    } catch {
      forwardTerminal(.error(error))
      return false
    }
    return emit(state)
  }
}

extension Observable {
  public static func generate(
    initialState: Element, condition: @escaping (Element) throws -> Bool,
    scheduler: Scheduler = CurrentThreadScheduler.instance, iterate: @escaping (Element) throws -> Element
  ) -> Observable<Element> {
    GenerateObservable(Generation(initialState: initialState, condition: condition, iterate: iterate, scheduler: scheduler))
  }
}

extension Observable where Element == Value {
  public static func generate(
    initialState: Value, condition: @escaping (Value) throws -> Bool,
    scheduler: Scheduler = CurrentThreadScheduler.instance, iterate: @escaping (Value) throws -> Value
  ) -> Observable<Value> {
    ValueGenerateObservable(Generation(initialState: initialState, condition: condition, iterate: iterate, scheduler: scheduler))
  }
}
