/// One unit of work for a subject's drain. Every state change and every delivery of a
/// subject is one of these, handled one at a time, in submission order, by whichever thread
/// drains: that is what serializes concurrent and re-entrant calls. A subscription member
/// of an op holds a reference of its own (`SubjectMember.queued`), released once handled.
@usableFromInline enum SubjectOp<Element> {
  case event(Event<Element>)
  case add(SubjectMember<Element>, Observer<Element>)
  case remove(SubjectMember<Element>)
  case dispose
}
