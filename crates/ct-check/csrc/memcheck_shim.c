/* Valgrind memcheck client requests, callable from Rust.
 *
 * Marking a secret's bytes undefined makes memcheck report every conditional jump, move
 * or memory address that depends on it: exactly the timing leaks a constant-time
 * function must not have. Outside valgrind the requests do nothing.
 *
 * Without valgrind's headers (valgrind not installed) the requests compile to nothing and
 * running_on_valgrind() is 0, so the workspace builds anywhere; run.sh installs valgrind
 * before it checks anything. */
#include <stddef.h>

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define MODRED_HAVE_MEMCHECK 1
#endif
#endif

#ifndef MODRED_HAVE_MEMCHECK
#define VALGRIND_MAKE_MEM_UNDEFINED(p, len) 0
#define VALGRIND_MAKE_MEM_DEFINED(p, len) 0
#define RUNNING_ON_VALGRIND 0
#define VALGRIND_COUNT_ERRORS 0
#endif

void modred_ct_mark_secret(const void *p, size_t len) {
    (void)p;
    (void)len;
    (void)VALGRIND_MAKE_MEM_UNDEFINED(p, len);
}

void modred_ct_mark_public(const void *p, size_t len) {
    (void)p;
    (void)len;
    (void)VALGRIND_MAKE_MEM_DEFINED(p, len);
}

unsigned long modred_ct_running_on_valgrind(void) {
    return RUNNING_ON_VALGRIND;
}

unsigned long modred_ct_error_count(void) {
    return VALGRIND_COUNT_ERRORS;
}

int modred_ct_have_memcheck_header(void) {
#ifdef MODRED_HAVE_MEMCHECK
    return 1;
#else
    return 0;
#endif
}
