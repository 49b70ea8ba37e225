import Synchronization

/// An unbounded FIFO from one producer to one consumer, in linked chunks of about 4 KB, with
/// no lock and no atomic per element: the two ends are separate values that only their own
/// side touches, so the owner keeps them in separate stored properties.
///
/// The owner publishes pushes itself (observe_on: a release on its `wip` counter after each
/// push, an acquire before popping) and pops only elements it knows were pushed; that also
/// makes a chunk's `next` link, written before the first push into the next chunk, visible
/// to a consumer that reaches it. A chunk the consumer has emptied goes back to the producer
/// through one atomic spare slot, so a queue that stays shorter than a chunk allocates
/// nothing after its first one.
@usableFromInline enum HandoffQueue<Element> {
  /// Slots per chunk; `next` comes first, then the slots.
  @inlinable static var capacity: Int { Swift.max(16, 4032 / MemoryLayout<Element>.stride) }
  @inlinable static var slotsOffset: Int {
    Swift.max(MemoryLayout<UnsafeMutableRawPointer?>.stride, MemoryLayout<Element>.alignment)
  }
  @inlinable static var alignment: Int {
    Swift.max(MemoryLayout<UnsafeMutableRawPointer?>.alignment, MemoryLayout<Element>.alignment)
  }

  @inlinable static func allocateChunk() -> UnsafeMutableRawPointer {
    let chunk = UnsafeMutableRawPointer.allocate(
      byteCount: slotsOffset + capacity * MemoryLayout<Element>.stride, alignment: alignment)
    chunk.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
    return chunk
  }

  @inlinable static func slots(_ chunk: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Element> {
    (chunk + slotsOffset).assumingMemoryBound(to: Element.self)
  }

  @inlinable static func next(_ chunk: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    chunk.load(as: UnsafeMutableRawPointer?.self)
  }

  /// The producer's end: the chunk it writes and the next free slot in it.
  @usableFromInline struct Tail {
    @usableFromInline var chunk: UnsafeMutableRawPointer
    @usableFromInline var index = 0

    @inlinable init(_ chunk: UnsafeMutableRawPointer) { self.chunk = chunk }

    @inlinable @inline(__always) mutating func push(_ element: consuming Element, spare: borrowing Atomic<UnsafeMutableRawPointer?>) {
      if index == HandoffQueue.capacity { advance(spare: spare) }
      (HandoffQueue.slots(chunk) + index).initialize(to: element)
      index += 1
    }

    @inlinable @inline(never) mutating func advance(spare: borrowing Atomic<UnsafeMutableRawPointer?>) {
      let fresh = spare.exchange(nil, ordering: .acquiringAndReleasing) ?? HandoffQueue.allocateChunk()
      fresh.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
      chunk.storeBytes(of: fresh, as: UnsafeMutableRawPointer?.self)
      chunk = fresh
      index = 0
    }
  }

  /// The consumer's end: the chunk it reads and the next slot to read in it.
  @usableFromInline struct Head {
    @usableFromInline var chunk: UnsafeMutableRawPointer
    @usableFromInline var index = 0

    @inlinable init(_ chunk: UnsafeMutableRawPointer) { self.chunk = chunk }

    /// The oldest element; the caller knows one was pushed and published.
    @inlinable @inline(__always) mutating func pop(spare: borrowing Atomic<UnsafeMutableRawPointer?>) -> Element {
      if index == HandoffQueue.capacity { advance(spare: spare) }
      let element = (HandoffQueue.slots(chunk) + index).move()
      index += 1
      return element
    }

    @inlinable @inline(never) mutating func advance(spare: borrowing Atomic<UnsafeMutableRawPointer?>) {
      let done = chunk
      chunk = HandoffQueue.next(done)!
      index = 0
      spare.exchange(done, ordering: .acquiringAndReleasing)?.deallocate()
    }
  }

  /// Destroys what is still queued between `head` and `tail` and frees every chunk, the
  /// spare included. Only when neither end is in use any more (the owner's deinit).
  @usableFromInline static func destroy(
    head: Head, tail: Tail, spare: borrowing Atomic<UnsafeMutableRawPointer?>
  ) {
    var chunk = head.chunk, index = head.index
    while chunk != tail.chunk {
      slots(chunk).advanced(by: index).deinitialize(count: capacity - index)
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
