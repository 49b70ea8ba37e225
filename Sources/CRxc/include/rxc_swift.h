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
struct rx_run_loop { char rxc_opaque_; };

/* Internal (not exported: the version script keeps only rx_*). */
void rxc_set_last_error(const char *message);
const char *rxc_get_last_error(void);
/* debug_env.c: RXC_DEBUG is set (released handles stay allocated and poisoned). */
extern int rxc_debug_state_ __attribute__((visibility("hidden")));
int rxc_debug_poison_init(void);
static inline int rxc_debug_poison(void) {
  int v = __atomic_load_n(&rxc_debug_state_, __ATOMIC_RELAXED);
  return v >= 0 ? v : rxc_debug_poison_init();
}
/* pthread_t of the process's initial thread (see main_thread.c). */
unsigned long rxc_main_thread(void);
/* spare_handles.c: this thread's dropped observable handles, one emptied CPipeline
 * (rx_map/rx_filter's observable), token and observable box, kept for reuse. initial-exec TLS: one %fs-relative access (the block is small enough for glibc's
 * static TLS surplus when the library is dlopen()ed). */
#include <stdbool.h>
enum { RXC_SPARE_HANDLES = 2 };
typedef struct rxc_spare_handles {
  void *slot[RXC_SPARE_HANDLES];
  int count;
  int hooked; /* the thread-exit hook that releases them is set */
  void *pipeline;
  void *token; /* an emptied CObserver (see CObserver.retire) */
  void *observable_box; /* an emptied ObservableBox (see ObservableBox.release) */
} rxc_spare_handles;
extern __thread rxc_spare_handles rxc_spare_tls
    __attribute__((tls_model("initial-exec"), visibility("hidden")));
/* Sets this thread's exit hook (`release` releases one spare object); false if it cannot. */
bool rxc_spare_hook(void (*release)(void *));
static inline bool rxc_spare_hooked(void) { return rxc_spare_tls.hooked != 0; }
/* A spare handle, or NULL. */
static inline void *rxc_spare_take(void) {
  rxc_spare_handles *s = &rxc_spare_tls;
  return s->count > 0 ? s->slot[--s->count] : (void *)0;
}
/* Keeps `h` if there is room and the exit hook is set (else the caller hooks or releases). */
static inline bool rxc_spare_put(void *h) {
  rxc_spare_handles *s = &rxc_spare_tls;
  if (s->count == RXC_SPARE_HANDLES || !s->hooked) return false;
  s->slot[s->count++] = h;
  return true;
}
/* The spare pipeline, or NULL. */
static inline void *rxc_spare_take_pipeline(void) {
  void *p = rxc_spare_tls.pipeline;
  rxc_spare_tls.pipeline = (void *)0;
  return p;
}
/* The spare subscription token, or NULL. */
static inline void *rxc_spare_take_token(void) {
  void *p = rxc_spare_tls.token;
  rxc_spare_tls.token = (void *)0;
  return p;
}
/* Keeps `p` if the slot is free and the exit hook is set. */
static inline bool rxc_spare_put_token(void *p) {
  rxc_spare_handles *s = &rxc_spare_tls;
  if (s->token || !s->hooked) return false;
  s->token = p;
  return true;
}
/* Keeps `p` if the slot is free and the exit hook is set. */
static inline bool rxc_spare_put_pipeline(void *p) {
  rxc_spare_handles *s = &rxc_spare_tls;
  if (s->pipeline || !s->hooked) return false;
  s->pipeline = p;
  return true;
}
/* The spare observable box, or NULL. */
static inline void *rxc_spare_take_observable_box(void) {
  void *p = rxc_spare_tls.observable_box;
  rxc_spare_tls.observable_box = (void *)0;
  return p;
}
/* Keeps `p` if the slot is free and the exit hook is set. */
static inline bool rxc_spare_put_observable_box(void *p) {
  rxc_spare_handles *s = &rxc_spare_tls;
  if (s->observable_box || !s->hooked) return false;
  s->observable_box = p;
  return true;
}
/* member_call.c: the class of subscription tokens (CObserver's isa), stored by every new
 * token: rx_dispose and rx_release tell a token by one load and compare (Swift's metadata
 * accessor is a call). Null until the first token exists, when no pointer is a token. */
extern const void *rxc_token_class_ __attribute__((visibility("hidden")));
static inline const void *rxc_token_class(void) { return __atomic_load_n(&rxc_token_class_, __ATOMIC_RELAXED); }
static inline void rxc_set_token_class(const void *c) { __atomic_store_n(&rxc_token_class_, c, __ATOMIC_RELAXED); }
#endif
