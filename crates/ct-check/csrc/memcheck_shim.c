/* Valgrind memcheck client requests, callable from Rust.
 *
 * Marking a secret's bytes undefined makes memcheck report every conditional jump, move
 * or memory address that depends on it: exactly the timing leaks a constant-time
 * function must not have. Outside valgrind the requests do nothing. */
#include <stddef.h>
#include <valgrind/memcheck.h>

void modred_ct_mark_secret(const void *p, size_t len) {
    (void)VALGRIND_MAKE_MEM_UNDEFINED(p, len);
}

void modred_ct_mark_public(const void *p, size_t len) {
    (void)VALGRIND_MAKE_MEM_DEFINED(p, len);
}

unsigned long modred_ct_running_on_valgrind(void) {
    return RUNNING_ON_VALGRIND;
}

unsigned long modred_ct_error_count(void) {
    return VALGRIND_COUNT_ERRORS;
}
