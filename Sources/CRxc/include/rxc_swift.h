/* What the Swift ABI layer sees of C: the public header, the handle structs completed so
 * Swift imports them as typed pointers (the emitted header then names the same types as
 * include/rxc.h, which makes the ABI drift check exact), and internal helpers. */
#ifndef RXC_SWIFT_SHIM_H
#define RXC_SWIFT_SHIM_H
#include <stdint.h>
#include "../../../include/rxc.h"

struct rx_observable { char rxc_opaque_; };
struct rx_subject { char rxc_opaque_; };
struct rx_scheduler { char rxc_opaque_; };
struct rx_disposable { char rxc_opaque_; };
struct rx_dispose_bag { char rxc_opaque_; };
struct rx_emitter { char rxc_opaque_; };
struct rx_error { char rxc_opaque_; };
struct rx_boxed { char rxc_opaque_; };

/* Internal (not exported: the version script keeps only rx_*). */
void rxc_set_last_error(const char *message);
const char *rxc_get_last_error(void);
/* pthread_t of the process's initial thread (see main_thread.c). */
unsigned long rxc_main_thread(void);
/* process_barrier.c: a full fence on every thread of the process. */
void rxc_process_barrier(void);
/* member_call.c: the subject call this thread is making for a C observer (its address,
 * tagged 1 while it attaches, 2 while it detaches), so that the subject's notices to the
 * observer can tell an inline call of its own from a remote drain. */
extern __attribute__((tls_model("initial-exec"))) _Thread_local uintptr_t rxc_member_call_;
static inline uintptr_t rxc_member_call(void) { return rxc_member_call_; }
static inline void rxc_set_member_call(uintptr_t call) { rxc_member_call_ = call; }
/* Orders the surrounding memory accesses for the compiler only (no instruction). */
static inline void rxc_compiler_fence(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
#endif
