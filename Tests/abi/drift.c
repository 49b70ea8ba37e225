/*
 * The ABI drift check (make check-abi): the public header and the header swiftc emits for
 * the @c exports (build/gen/rxc-swift.h) in one translation unit. A function whose Swift
 * signature differs from its declaration in include/rxc.h is a "conflicting types" error.
 * Compiled as C, and as C++ (-DRXC_DRIFT_CXX), where enum-versus-int differences are errors
 * too; for C++ the Makefile strips the generated header's noexcept (not part of the C ABI).
 */
#include "rxc.h"
#ifdef RXC_DRIFT_CXX
#include "rxc-swift-cxx.h"
#else
#include "rxc-swift.h"
#endif

int main(void) { return 0; }
