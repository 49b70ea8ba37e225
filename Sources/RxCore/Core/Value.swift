/// The one element type the core is specialized for: what the C ABI's streams carry, and
/// what Swift callers use to get the same speed. Plain data is inline (no reference
/// counting on the int/double path); anything else is a reference-counted object the core
/// never looks into (the C layer's boxes: strings, bytes, arrays, events, observables).
///
/// Operators have concrete classes for `Observable<Value>` (see `docs/SPECIALIZATION.md`):
/// a generic class's methods run unspecialized when called through its vtable, so each
/// operator's generic sink gets a non-generic leaf for `Value` whose overrides inline the
/// generic bodies, specialized.
///
/// Layout (the C layer relies on it, and tests it): 8 bytes of payload and a tag byte that
/// numbers the payload cases in declaration order (int 0, double 1, bool 2, ptr 3, boxed 4),
/// `none` after them.
@frozen public enum Value {
  case none
  case int(Int64)
  case double(Double)
  case bool(Bool)
  case ptr(UnsafeMutableRawPointer?)
  case boxed(AnyObject)
}
