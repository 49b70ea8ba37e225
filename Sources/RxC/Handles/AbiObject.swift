import CRxc
import Glibc

/// What every pointer handed to C points at. The magic number and kind sit at fixed offsets
/// (16 and 24: right after the Swift object header), so entry points can check a pointer
/// before trusting it, as SQLite does. Never reorder these two properties.
class AbiObject {
  final var magic: UInt64
  final let kind: ObjectKind

  init(kind: ObjectKind) {
    self.magic = AbiObject.liveMagic
    self.kind = kind
  }

  static let liveMagic: UInt64 = 0x5258_435F_4C49_5645  // "RXC_LIVE"
  static let deadMagic: UInt64 = 0x5258_435F_4445_4144  // "RXC_DEAD"
  static let magicOffset = 16
  static let kindOffset = 24
}

/// The kind tag of an ABI object. Stored as UInt32 so a garbage pointer can be checked
/// against it without an enum trap.
struct ObjectKind: RawRepresentable, Equatable {
  let rawValue: UInt32
  // Computed, not `static let`: a lazily initialized global goes through swift_once on
  // every entry point in debug builds, and swift_once has hung forked TSan test processes.
  static var observable: ObjectKind { ObjectKind(rawValue: 0x6F62_7331) }
  static var subject: ObjectKind { ObjectKind(rawValue: 0x7375_6231) }
  static var scheduler: ObjectKind { ObjectKind(rawValue: 0x7363_6831) }
  static var disposable: ObjectKind { ObjectKind(rawValue: 0x6469_7331) }
  static var disposeBag: ObjectKind { ObjectKind(rawValue: 0x6261_6731) }
  static var emitter: ObjectKind { ObjectKind(rawValue: 0x656D_6931) }
  static var error: ObjectKind { ObjectKind(rawValue: 0x6572_7231) }
  static var value: ObjectKind { ObjectKind(rawValue: 0x7661_6C31) }
  static var runLoop: ObjectKind { ObjectKind(rawValue: 0x726C_7031) }

  var name: String {
    switch self {
    case .observable: return "rx_observable"
    case .subject: return "rx_subject"
    case .scheduler: return "rx_scheduler"
    case .disposable: return "rx_disposable"
    case .disposeBag: return "rx_dispose_bag"
    case .emitter: return "rx_emitter"
    case .error: return "rx_error"
    case .value: return "rx_value box"
    case .runLoop: return "rx_run_loop"
    default: return "unknown"
    }
  }
}

/// RXC_DEBUG=1 keeps released handles allocated and poisoned, so a use after release is
/// always caught as RX_EHANDLE instead of reading freed memory.
/// (Read on first use, see Sources/CRxc/debug_env.c.)
var debugPoison: Bool { rxc_debug_poison() != 0 }
