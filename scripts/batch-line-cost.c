/* The reference for `modred batch`'s per-line cost: reads the same JSON lines
 * ({"op":"powm","x":"…","e":"…","m":"…"}, decimal strings), parses the three numbers with
 * mpz_set_str, computes mpz_powm and prints {"ok":"<decimal>"} per line, like
 * `modred batch --threads 1`. Only powm lines with x, e and m as decimal strings, in any
 * order, are understood (the lines scripts/batch-line-cost.sh writes).
 *
 * Build: cc -O2 -o batch-line-cost-gmp scripts/batch-line-cost.c -lgmp
 */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sets `out` to the decimal string of field `name` ("x", "e", "m") in `line`; 0 if absent. */
static int field(mpz_t out, char *line, const char *name) {
    char key[8];
    snprintf(key, sizeof key, "\"%s\":\"", name);
    char *at = strstr(line, key);
    if (!at)
        return 0;
    at += strlen(key);
    char *end = strchr(at, '"');
    if (!end)
        return 0;
    char saved = *end;
    *end = '\0';
    int ok = mpz_set_str(out, at, 10) == 0;
    *end = saved;
    return ok;
}

int main(void) {
    static char in_buf[1 << 20], out_buf[1 << 16];
    setvbuf(stdin, in_buf, _IOFBF, sizeof in_buf);
    setvbuf(stdout, out_buf, _IOFBF, sizeof out_buf);
    mpz_t x, e, m, r;
    mpz_inits(x, e, m, r, NULL);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        if (!field(x, line, "x") || !field(e, line, "e") || !field(m, line, "m") ||
            mpz_sgn(m) == 0) {
            fputs("{\"error\":\"bad line\"}\n", stdout);
            continue;
        }
        mpz_powm(r, x, e, m);
        fputs("{\"ok\":\"", stdout);
        mpz_out_str(stdout, 10, r);
        fputs("\"}\n", stdout);
    }
    free(line);
    mpz_clears(x, e, m, r, NULL);
    return 0;
}
