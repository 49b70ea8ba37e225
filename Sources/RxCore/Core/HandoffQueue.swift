import CRxcCore
import Synchronization

/// An unbounded FIFO from one producer to one consumer, in linked chunks, with no lock and
/// no atomic per element: the two ends are separate values that only their own side
/// touches, so the owner keeps them in separate stored properties.
///
/// The owner publishes pushes itself (observe_on: a release on its `wip` counter after each
/// push, an acquire before popping) and pops only elements it knows were pushed; that also
/// makes a chunk's `next` link, written before the first push into the next chunk, visible
/// to a consumer that reaches it. Chunks the consumer has emptied go back to the producer
/// through a `Pool` (an atomic per chunk, not per element), so once warm a queue allocates
/// nothing, even after a backlog of many chunks. Chunks start small (a quiet subscription
/// holds a few hundred bytes) and double, up to about 4 KB, only when the producer finds the
/// pool empty: the queue is long. The chunks of a backlog beyond the pool are freed as the
/// consumer empties them, and counted: the drain that then finds its queue empty has the
/// allocator give that memory back to the system (`rxc_queue_drained`), which a heap does
/// not do for chunks freed below its top.
@usableFromInline enum HandoffQueue<Element> {
  @usableFromInline typealias Chunk = UnsafeMutableRawPointer
  // A chunk: `next` (Chunk?), its capacity (Int), then the slots.
  @inlinable static var minCapacity: Int { 16 }
  @inlinable static var maxCapacity: Int { Swift.max(minCapacity, 4064 / MemoryLayout<Element>.stride) }
  @inlinable static var slotsOffset: Int { Swift.max(16, MemoryLayout<Element>.alignment) }

  @inlinable static func allocate(capacity: Int) -> Chunk {
    let chunk = Chunk.allocate(
      byteCount: slotsOffset + capacity * MemoryLayout<Element>.stride,
      alignment: Swift.max(8, MemoryLayout<Element>.alignment))
    chunk.storeBytes(of: nil, as: Chunk?.self)
    chunk.storeBytes(of: capacity, toByteOffset: 8, as: Int.self)
    return chunk
  }

  @inlinable static func capacity(_ chunk: Chunk) -> Int { chunk.load(fromByteOffset: 8, as: Int.self) }
  @inlinable static func next(_ chunk: Chunk) -> Chunk? { chunk.load(as: Chunk?.self) }
  @inlinable static func slots(_ chunk: Chunk) -> UnsafeMutablePointer<Element> {
    (chunk + slotsOffset).assumingMemoryBound(to: Element.self)
  }

  /// Emptied chunks, for the producer to reuse: a stack linked through `next` that only the
  /// consumer pushes and only the producer pops (so no ABA). It keeps at most `limit`
  /// chunks (about 1 MB): a backlog of a few milliseconds (a preempted drain) is reused, not
  /// reallocated, next time, and the memory of a longer one goes back to the allocator.
  @usableFromInline struct Pool: ~Copyable {
    @usableFromInline let top = Atomic<Chunk?>(nil)
    /// Chunks the producer has taken; the consumer counts what it gave (`Head.given`).
    @usableFromInline let taken = Atomic<Int>(0)
    @inlinable static var limit: Int { 256 }

    @inlinable init() {}

    /// Producer only.
    @inlinable func pop() -> Chunk? {
      var chunk = top.load(ordering: .acquiring)
      while let c = chunk {
        let (exchanged, original) = top.compareExchange(
          expected: c, desired: HandoffQueue.next(c), ordering: .acquiringAndReleasing)
        if exchanged {
          taken.wrappingAdd(1, ordering: .relaxed)
          return c
        }
        chunk = original
      }
      return nil
    }

    /// Consumer only; `given` is its count of chunks pushed so far. False: the pool is full.
    @inlinable func push(_ chunk: Chunk, given: Int) -> Bool {
      if given &- taken.load(ordering: .relaxed) >= Self.limit { return false }
      var old = top.load(ordering: .relaxed)
      while true {
        chunk.storeBytes(of: old, as: Chunk?.self)
        let (exchanged, original) = top.compareExchange(
          expected: old, desired: chunk, ordering: .acquiringAndReleasing)
        if exchanged { return true }
        old = original
      }
    }

    /// Frees every pooled chunk; only when neither end is in use.
    @usableFromInline func drain() {
      while let chunk = pop() { chunk.deallocate() }
    }
  }

  /// The producer's end: the chunk it writes, the next free slot and the chunk's capacity.
  @usableFromInline struct Tail {
    @usableFromInline var chunk: Chunk
    @usableFromInline var index = 0
    @usableFromInline var end: Int

    @inlinable init(_ chunk: Chunk) {
      self.chunk = chunk
      end = HandoffQueue.capacity(chunk)
    }

    @inlinable @inline(__always)
    mutating func push(_ element: consuming Element, pool: borrowing Pool) {
      if index == end { advance(pool: pool) }
      (HandoffQueue.slots(chunk) + index).initialize(to: element)
      index &+= 1
    }

    @inlinable @inline(never)
    mutating func advance(pool: borrowing Pool) {
      var reused: Chunk? = nil
      while let pooled = pool.pop() {
        if HandoffQueue.capacity(pooled) >= end {  // smaller ones are from before a growth
          reused = pooled
          break
        }
        pooled.deallocate()
      }
      let fresh: Chunk
      if let reused {
        fresh = reused
        fresh.storeBytes(of: nil, as: Chunk?.self)
      } else {
        fresh = HandoffQueue.allocate(capacity: Swift.min(end * 2, HandoffQueue.maxCapacity))
      }
      chunk.storeBytes(of: fresh, as: Chunk?.self)
      chunk = fresh
      index = 0
      end = HandoffQueue.capacity(fresh)
    }
  }

  /// The consumer's end: the chunk it reads, the next slot to read, the chunk's capacity,
  /// and how many chunks it has given to the pool.
  @usableFromInline struct Head {
    @usableFromInline var chunk: Chunk
    @usableFromInline var index = 0
    @usableFromInline var end: Int
    @usableFromInline var given = 0

    @inlinable init(_ chunk: Chunk) {
      self.chunk = chunk
      end = HandoffQueue.capacity(chunk)
    }

    /// The oldest element; the caller knows one was pushed and published.
    @inlinable @inline(__always)
    mutating func pop(pool: borrowing Pool) -> Element {
      if index == end { advance(pool: pool) }
      let element = (HandoffQueue.slots(chunk) + index).move()
      index &+= 1
      return element
    }

    @inlinable @inline(never)
    mutating func advance(pool: borrowing Pool) {
      let done = chunk
      chunk = HandoffQueue.next(done)!
      index = 0
      end = HandoffQueue.capacity(chunk)
      if pool.push(done, given: given) {
        given &+= 1
      } else {
        rxc_queue_freed(HandoffQueue.slotsOffset + HandoffQueue.capacity(done) * MemoryLayout<Element>.stride)
        done.deallocate()
      }
    }
  }

  /// A queue's two ends, on one first chunk.
  @inlinable static func make() -> (Head, Tail) {
    let first = allocate(capacity: minCapacity)
    return (Head(first), Tail(first))
  }

  /// Destroys what is still queued between `head` and `tail` and frees every chunk, the
  /// pooled ones included. Only when neither end is in use any more (the owner's deinit).
  @usableFromInline static func destroy(head: Head, tail: Tail, pool: borrowing Pool) {
    var chunk = head.chunk, index = head.index
    while chunk != tail.chunk {
      slots(chunk).advanced(by: index).deinitialize(count: capacity(chunk) - index)
      let next = next(chunk)!
      chunk.deallocate()
      chunk = next
      index = 0
    }
    slots(chunk).advanced(by: index).deinitialize(count: tail.index - index)
    chunk.deallocate()
    pool.drain()
  }
}
