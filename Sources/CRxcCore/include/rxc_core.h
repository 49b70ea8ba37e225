/* C helpers the Swift core needs and Swift cannot express: a process-wide barrier, a
 * compiler-only fence and a cheap thread identity. No Rx logic and no C ABI types here. */
#ifndef RXC_CORE_SHIM_H
#define RXC_CORE_SHIM_H
#include <stdint.h>
#include <pthread.h>

/* process_barrier.c: when it returns, every thread of the process has executed a full fence.
 * Lets a hot path pair a compiler fence with this on its rare opposite side. */
void rxc_process_barrier(void);
/* 0 when no real process barrier exists here: callers must then fence on both sides. */
int rxc_process_barrier_works(void);

/* Orders the surrounding memory accesses for the compiler only (no instruction). */
static inline void rxc_compiler_fence(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
/* A full fence, for the light side of an asymmetric fence where no process barrier exists. */
static inline void rxc_full_fence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

/* A value unique to the calling thread among live threads (its thread pointer: one load). */
static inline uintptr_t rxc_thread_self(void) {
#if defined(__x86_64__) || defined(__aarch64__)
  return (uintptr_t)__builtin_thread_pointer();
#else
  return (uintptr_t)pthread_self();
#endif
}

/* fork_generation.c: 0 in the process that loaded the library, n in the n-th generation of
 * forked children. One relaxed load. */
extern unsigned long rxc_fork_generation_value;
static inline unsigned long rxc_fork_generation(void) {
  return __atomic_load_n(&rxc_fork_generation_value, __ATOMIC_RELAXED);
}

/* memory_return.c: bytes of queue chunks freed since the last trim. A queue adds what it
 * frees; the drain that leaves a queue empty calls rxc_queue_drained(), which trims the
 * allocator's heap (malloc_trim) once RXC_QUEUE_TRIM_BYTES were freed: one load otherwise. */
#define RXC_QUEUE_TRIM_BYTES (4L << 20)
extern long rxc_queue_freed_bytes_value;
void rxc_queue_return_memory(void);
static inline void rxc_queue_freed(long bytes) {
  __atomic_fetch_add(&rxc_queue_freed_bytes_value, bytes, __ATOMIC_RELAXED);
}
static inline void rxc_queue_drained(void) {
  if (__atomic_load_n(&rxc_queue_freed_bytes_value, __ATOMIC_RELAXED) >= RXC_QUEUE_TRIM_BYTES)
    rxc_queue_return_memory();
}

/* fork_locks.c: `lock` is held across every fork() from now on (taken before, released
 * after, in parent and child) until unregistered. Never take one while holding another. */
void rxc_fork_lock_register(pthread_mutex_t *lock);
void rxc_fork_lock_unregister(pthread_mutex_t *lock);

/* fork_generation.c: 1 on the process's initial thread (in a forked child: the thread that
   forked), else 0. */
int rxc_thread_is_initial(void);
/* fork_generation.c: this thread's kernel thread id (gettid), without a system call after
   the first. */
long rxc_thread_tid(void);
/* spare_objects.c: this thread's spare object of each kind (a torn-down SinkDisposer, a
 * SubjectSubscription that left its subject, a ValueJust that was run, a ScheduledAction that
 * ran or was disposed), kept for the next one made on this thread. */
enum { RXC_SPARE_DISPOSER = 0, RXC_SPARE_SUBSCRIPTION = 1, RXC_SPARE_JUST = 2, RXC_SPARE_ACTION = 3, RXC_SPARE_KINDS = 4 };
typedef struct rxc_core_spare_slots {
  void *object[RXC_SPARE_KINDS];
  unsigned hooked; /* bit k: the thread-exit hook is set, and kind k's release function */
} rxc_core_spare_slots;
extern __thread rxc_core_spare_slots rxc_core_spare_tls __attribute__((tls_model("initial-exec"), visibility("hidden")));
/* Sets this thread's exit hook, and `release` as the function that releases a spare of
   `kind` (the same one for every thread); 0 if it cannot. */
int rxc_core_spare_hook(int kind, void (*release)(void *));
/* The spare of `kind`, or NULL. */
static inline void *rxc_core_spare_take(int kind) {
  void *p = rxc_core_spare_tls.object[kind];
  rxc_core_spare_tls.object[kind] = (void *)0;
  return p;
}
/* The spare of `kind`, left in its slot, or NULL. */
static inline void *rxc_core_spare_peek(int kind) { return rxc_core_spare_tls.object[kind]; }
/* Keeps `p` as the spare of `kind` if that slot is free and the exit hook is set. */
static inline int rxc_core_spare_put(int kind, void *p) {
  rxc_core_spare_slots *s = &rxc_core_spare_tls;
  if (s->object[kind] || !(s->hooked & (1u << kind))) return 0;
  s->object[kind] = p;
  return 1;
}
static inline int rxc_core_spare_hooked(int kind) { return (rxc_core_spare_tls.hooked >> kind) & 1; }
/* The class (its metadata, an object's first word) kept under each kind, noted when the
   first object of the kind is made: "is this a spare's class" is then a compare of two
   loads, where Swift would call the class's metadata accessor. NULL until then. */
extern const void *rxc_core_spare_class[RXC_SPARE_KINDS];
static inline void rxc_core_spare_note_class(int kind, const void *object) {
  __atomic_store_n(&rxc_core_spare_class[kind], *(const void *const *)object, __ATOMIC_RELAXED);
}
static inline int rxc_core_spare_is(int kind, const void *object) {
  return *(const void *const *)object == __atomic_load_n(&rxc_core_spare_class[kind], __ATOMIC_RELAXED);
}

/* Swift runtime entry points (libswiftCore exports them with the C calling convention), for
 * UnownedRef: a strong reference only if the object is not deinitializing (NULL otherwise),
 * and the unowned count that keeps an object's memory, not its life. */
void *swift_tryRetain(void *object);
/* A retain without an atomic operation: only for an object no other thread can reach. */
void *swift_nonatomic_retain(void *object);
void *swift_unownedRetain(void *object);
void swift_unownedRelease(void *object);
/* member_call.c: the subject call this thread is making for an ObserverEnd (its address,
 * tagged 1 while it attaches, 2 while it detaches), so that the subject's notices to the
 * observer can tell an inline call of its own from a remote drain. Initial-exec TLS: one
 * load or store relative to the thread pointer. */
extern __attribute__((tls_model("initial-exec"))) _Thread_local uintptr_t rxc_member_call_;
static inline uintptr_t rxc_member_call(void) { return rxc_member_call_; }
static inline void rxc_set_member_call(uintptr_t call) { rxc_member_call_ = call; }
/* stop_epoch.c: bumped on this thread whenever an observer may have stopped wanting events
 * (see SynchronousStop.swift). Initial-exec TLS: one add relative to the thread pointer. */
extern __attribute__((tls_model("initial-exec"))) _Thread_local uintptr_t rxc_stop_epoch_;
static inline uintptr_t rxc_stop_epoch(void) { return rxc_stop_epoch_; }
static inline void rxc_stop_epoch_bump(void) { rxc_stop_epoch_++; }
/* The Swift runtime's uniqueness test of an object's strong count (no retain). */
_Bool swift_isUniquelyReferenced_nonNull_native(const void *object);

#endif
