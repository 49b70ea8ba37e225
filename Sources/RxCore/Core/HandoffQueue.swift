import Synchronization

/// An unbounded FIFO from one producer to one consumer, in linked chunks, with no lock and
/// no atomic per element: the two ends are separate values that only their own side
/// touches, so the owner keeps them in separate stored properties.
///
/// The owner publishes pushes itself (observe_on: a release on its `wip` counter after each
/// push, an acquire before popping) and pops only elements it knows were pushed; that also
/// makes a chunk's `next` link, written before the first push into the next chunk, visible
/// to a consumer that reaches it. A chunk the consumer has emptied goes back to the producer
/// through one atomic spare slot, so a queue that stays shorter than a chunk allocates
/// nothing once warm. Chunks start small (a quiet subscription holds a few hundred bytes)
/// and double, up to about 4 KB, only when the producer finds no spare: the queue is long.
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
    mutating func push(_ element: consuming Element, spare: borrowing Atomic<Chunk?>) {
      if index == end { advance(spare: spare) }
      (HandoffQueue.slots(chunk) + index).initialize(to: element)
      index += 1
    }

    @inlinable @inline(never)
    mutating func advance(spare: borrowing Atomic<Chunk?>) {
      var fresh: Chunk
      if let reused = spare.exchange(nil, ordering: .acquiringAndReleasing) {
        // The consumer keeps up: a chunk as large as this one will do.
        if HandoffQueue.capacity(reused) >= end {
          fresh = reused
          fresh.storeBytes(of: nil, as: Chunk?.self)
        } else {
          reused.deallocate()
          fresh = HandoffQueue.allocate(capacity: end)
        }
      } else {
        fresh = HandoffQueue.allocate(capacity: Swift.min(end * 2, HandoffQueue.maxCapacity))
      }
      chunk.storeBytes(of: fresh, as: Chunk?.self)
      chunk = fresh
      index = 0
      end = HandoffQueue.capacity(fresh)
    }
  }

  /// The consumer's end: the chunk it reads, the next slot to read and the chunk's capacity.
  @usableFromInline struct Head {
    @usableFromInline var chunk: Chunk
    @usableFromInline var index = 0
    @usableFromInline var end: Int

    @inlinable init(_ chunk: Chunk) {
      self.chunk = chunk
      end = HandoffQueue.capacity(chunk)
    }

    /// The oldest element; the caller knows one was pushed and published.
    @inlinable @inline(__always)
    mutating func pop(spare: borrowing Atomic<Chunk?>) -> Element {
      if index == end { advance(spare: spare) }
      let element = (HandoffQueue.slots(chunk) + index).move()
      index += 1
      return element
    }

    @inlinable @inline(never)
    mutating func advance(spare: borrowing Atomic<Chunk?>) {
      let done = chunk
      chunk = HandoffQueue.next(done)!
      index = 0
      end = HandoffQueue.capacity(chunk)
      spare.exchange(done, ordering: .acquiringAndReleasing)?.deallocate()
    }
  }

  /// A queue's two ends, on one first chunk.
  @inlinable static func make() -> (Head, Tail) {
    let first = allocate(capacity: minCapacity)
    return (Head(first), Tail(first))
  }

  /// Destroys what is still queued between `head` and `tail` and frees every chunk, the
  /// spare included. Only when neither end is in use any more (the owner's deinit).
  @usableFromInline static func destroy(head: Head, tail: Tail, spare: borrowing Atomic<Chunk?>) {
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
    spare.exchange(nil, ordering: .acquiringAndReleasing)?.deallocate()
  }
}
