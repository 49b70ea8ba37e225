import CRxc
@_spi(RxC) import RxCore

/// The value table of a marble test: each value character's rx_value, with defaults for
/// characters not in the table (a digit is its RX_INT, a letter a one-letter RX_STRING), and
/// the error `#` stands for.
struct MarbleValues {
  var table: [(key: Character, value: RxValue)] = []
  var error: ErrorObject

  /// Nil (rx_last_error set) if the table holds a bad value or key.
  init?(_ values: UnsafePointer<rx_marble_value>?, _ n: UInt, _ error: UnsafePointer<rx_error>?, _ fn: StaticString) {
    if values == nil && n > 0 {
      setLastError("\(fn): values is NULL but n_values is \(n)")
      return nil
    }
    for i in 0..<Int(n) {
      let entry = values![i]
      let key = Character(Unicode.Scalar(UInt8(bitPattern: entry.key)))
      guard Marble.isValueCharacter(key) else {
        setLastError("\(fn): values[\(i)].key '\(key)' is not a marble value character (a-z, A-Z, 0-9)")
        return nil
      }
      guard let value = RxValue.from(entry.value, fn) else { return nil }
      table.append((key, value))
    }
    if let error {
      guard let e = ErrorObject.fromC(error, fn) else { return nil }
      self.error = e
    } else {
      self.error = ErrorObject.make(code: Int32(RX_ERROR_USER), "marble error")
    }
  }

  func value(for key: Character) -> RxValue {
    if let entry = table.first(where: { $0.key == key }) { return entry.value }
    if let digit = key.wholeNumberValue { return .int(Int64(digit)) }
    return .boxed(StringBox(String(key)))
  }

  func event(_ token: Marble.Token) -> Event<RxValue> {
    switch token {
    case .value(let key): return .next(value(for: key))
    case .error: return .error(error)
    case .completed: return .completed
    }
  }

  /// The marble character for a recorded value, for diffs ("?" if none matches).
  func key(for value: RxValue) -> Character {
    if let entry = table.first(where: { valuesEqual($0.value, value) }) { return entry.key }
    if case .int(let i) = value, (0...9).contains(i) { return Character(String(i)) }
    if case .boxed(let box as StringBox) = value, box.length == 1,
      let c = String(validatingCString: box.bytes).flatMap({ $0.first }), Marble.isValueCharacter(c)
    {
      return c
    }
    return "?"
  }
}
