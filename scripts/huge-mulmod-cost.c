/* The reference for `modred batch`'s per-line cost on huge mulmod lines, and the generator
 * of those lines.
 *
 *   huge-mulmod-cost gen BITS LINES SEED   writes LINES lines
 *       {"op":"mulmod","x":"…","y":"…","m":"…"} (decimal strings): m a random BITS-bit
 *       modulus (top bit set, half of the lines odd, half even), x and y random below m,
 *       from GMP's Mersenne Twister seeded with SEED (deterministic).
 *   huge-mulmod-cost                       reads such lines, parses the three numbers with
 *       mpz_set_str, computes mpz_mul + mpz_tdiv_r and prints {"ok":"<decimal>"} per line,
 *       like `modred batch --threads 1`.
 *
 * Build: cc -O2 -o huge-mulmod-cost scripts/huge-mulmod-cost.c -lgmp
 */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sets `out` to the decimal string of field `name` ("x", "y", "m") in `line`; 0 if absent. */
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

static int generate(unsigned long bits, unsigned long lines, unsigned long seed) {
    gmp_randstate_t rs;
    gmp_randinit_mt(rs);
    gmp_randseed_ui(rs, seed);
    mpz_t x, y, m;
    mpz_inits(x, y, m, NULL);
    for (unsigned long i = 0; i < lines; i++) {
        mpz_urandomb(m, rs, bits);
        mpz_setbit(m, bits - 1);
        if (i % 2 == 0)
            mpz_setbit(m, 0);
        else
            mpz_clrbit(m, 0);
        mpz_urandomm(x, rs, m);
        mpz_urandomm(y, rs, m);
        fputs("{\"op\":\"mulmod\",\"x\":\"", stdout);
        mpz_out_str(stdout, 10, x);
        fputs("\",\"y\":\"", stdout);
        mpz_out_str(stdout, 10, y);
        fputs("\",\"m\":\"", stdout);
        mpz_out_str(stdout, 10, m);
        fputs("\"}\n", stdout);
    }
    mpz_clears(x, y, m, NULL);
    gmp_randclear(rs);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "gen") == 0)
        return generate(strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10),
                        strtoul(argv[4], NULL, 10));
    static char in_buf[1 << 20], out_buf[1 << 16];
    setvbuf(stdin, in_buf, _IOFBF, sizeof in_buf);
    setvbuf(stdout, out_buf, _IOFBF, sizeof out_buf);
    mpz_t x, y, m, p, r;
    mpz_inits(x, y, m, p, r, NULL);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        if (!field(x, line, "x") || !field(y, line, "y") || !field(m, line, "m") ||
            mpz_sgn(m) == 0) {
            fputs("{\"error\":\"bad line\"}\n", stdout);
            continue;
        }
        mpz_mul(p, x, y);
        mpz_tdiv_r(r, p, m);
        fputs("{\"ok\":\"", stdout);
        mpz_out_str(stdout, 10, r);
        fputs("\"}\n", stdout);
    }
    free(line);
    mpz_clears(x, y, m, p, r, NULL);
    return 0;
}
