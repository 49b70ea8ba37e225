/* What the Swift ABI layer sees of C: the public header, the handle structs completed so
 * Swift imports them as typed pointers (the emitted header then names the same types as
 * include/rxc.h, which makes the ABI drift check exact), and internal helpers. */
#ifndef RXC_SWIFT_SHIM_H
#define RXC_SWIFT_SHIM_H
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
#endif
