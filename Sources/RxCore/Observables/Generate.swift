// rx:value-leaf args=ClosureGeneration<Value> super=run
// rx:value-leaf name=CGenerateObservable args=CGeneration super=run
/// RxSwift's generate: `initialState`, then `iterate` of the previous state, each emitted
/// while `condition` holds for it, one per action on `scheduler` (see
/// `RecursiveScheduling`); completes at the first state that fails `condition`. Every
/// subscription starts again from `initialState`; a thrown error fails it.
class GenerateObservable<Rule: GenerationRule>: ParameterProducer<Rule.State, Generation<Rule>> {
  override func run(_ observer: Observer<Rule.State>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = GenerateSink(parameter, observer: observer, cancel: cancel)
    return (sink, RecursiveScheduling.start(on: parameter.scheduler) { sink.step() })
  }
}

/// How generate goes on: whether a state is emitted, and the next state, each read or
/// advanced where the sink keeps it. A type parameter of the sink, so each rule's calls are
/// direct: `ClosureGeneration`'s (Swift's closures) or RxC's (its C functions, with no
/// closure and no reabstraction thunk between).
protocol GenerationRule {
  associatedtype State
  func holds(_ state: UnsafePointer<State>) throws -> Bool
  func advance(_ state: UnsafeMutablePointer<State>) throws
}

/// `Observable.generate`'s rule: its two closures.
struct ClosureGeneration<State>: GenerationRule {
  let condition: (State) throws -> Bool
  let iterate: (State) throws -> State

  @inline(__always) func holds(_ state: UnsafePointer<State>) throws -> Bool { try condition(state.pointee) }
  @inline(__always) func advance(_ state: UnsafeMutablePointer<State>) throws { Slot.assign(state, taking: try iterate(state.pointee)) }
}

/// What generate starts from, how it goes on, and where it runs.
struct Generation<Rule: GenerationRule> {
  let initialState: Rule.State
  let rule: Rule
  let scheduler: Scheduler
}

final class GenerateSink<Rule: GenerationRule>: SteppingSink<Rule.State> {
  let rule: Rule
  var state: Rule.State
  var first = true  // steps never overlap: each is scheduled after the previous returned

  init(_ generation: Generation<Rule>, observer: Observer<Rule.State>, cancel: any Cancelable) {
    rule = generation.rule
    state = generation.initialState
    super.init(observer: observer, cancel: cancel)
  }

  /// Emits the next state, or ends; false when no step should follow.
  final func step() -> Bool {
    guard mayStep() else { return false }
    do {
      if first { first = false } else { try rule.advance(&state) }
      guard try rule.holds(&state) else {
        forwardTerminal(.completed)
        return false
      }
    } catch {
      forwardTerminal(.error(error))
      return false
    }
    forwardNext(at: &state)
    return !isDisposed
  }
}

extension Observable {
  // rx:value-overload
  public static func generate(
    initialState: Element, condition: @escaping (Element) throws -> Bool,
    scheduler: Scheduler = CurrentThreadScheduler.instance, iterate: @escaping (Element) throws -> Element
  ) -> Observable<Element> {
    GenerateObservable(Generation(
      initialState: initialState, rule: ClosureGeneration(condition: condition, iterate: iterate), scheduler: scheduler))
  }
}
