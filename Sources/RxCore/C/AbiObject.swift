import CRxc
import Glibc

/// What every pointer handed to C points at. The magic number and kind sit at fixed offsets
/// (16 and 24: right after the Swift object header), so entry points can check a pointer
/// before trusting it, as SQLite does. Never reorder these two properties.
@_spi(RxC) open class AbiObject {
  public final var magic: UInt64
  public final let kind: ObjectKind

  public init(kind: ObjectKind) {
    self.magic = AbiObject.liveMagic
    self.kind = kind
  }

  public static let liveMagic: UInt64 = 0x5258_435F_4C49_5645  // "RXC_LIVE"
  public static let deadMagic: UInt64 = 0x5258_435F_4445_4144  // "RXC_DEAD"
  public static let magicOffset = 16
  public static let kindOffset = 24
}

/// The kind tag of an ABI object. Stored as UInt32 so a garbage pointer can be checked
/// against it without an enum trap.
@_spi(RxC) public struct ObjectKind: RawRepresentable, Equatable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }
  // Computed, not `static let`: a lazily initialized global goes through swift_once on
  // every entry point in debug builds, and swift_once has hung forked TSan test processes.
  public static var observable: ObjectKind { ObjectKind(rawValue: 0x6F62_7331) }
  public static var subject: ObjectKind { ObjectKind(rawValue: 0x7375_6231) }
  public static var scheduler: ObjectKind { ObjectKind(rawValue: 0x7363_6831) }
  public static var disposable: ObjectKind { ObjectKind(rawValue: 0x6469_7331) }
  public static var disposeBag: ObjectKind { ObjectKind(rawValue: 0x6261_6731) }
  public static var emitter: ObjectKind { ObjectKind(rawValue: 0x656D_6931) }
  public static var error: ObjectKind { ObjectKind(rawValue: 0x6572_7231) }
  public static var value: ObjectKind { ObjectKind(rawValue: 0x7661_6C31) }
  public static var runLoop: ObjectKind { ObjectKind(rawValue: 0x726C_7031) }

  public var name: String {
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
@_spi(RxC) public var debugPoison: Bool { rxc_debug_poison() != 0 }
