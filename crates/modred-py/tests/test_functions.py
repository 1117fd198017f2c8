"""powmod, mulmod, reduce against Python's own pow and %, and against gmpy2 when installed."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import modred

SIZES = [1, 2, 7, 63, 64, 65, 127, 128, 192, 255, 256, 257, 384, 448, 521, 1024, 1536, 2048, 3072, 4096, 6000, 8192]

try:
    import gmpy2
except ImportError:  # the comparisons with gmpy2 are skipped, and say so
    gmpy2 = None


def moduli(rng, bits):
    """A random odd and a random even modulus of exactly `bits` bits (1 bit: just 1)."""
    if bits == 1:
        return [1]
    top = 1 << (bits - 1)
    m = top | rng.getrandbits(bits - 1)
    return [m | 1, m & ~1 if m & ~1 else m]


@pytest.mark.parametrize("bits", SIZES)
def test_against_python_at_every_size(bits):
    rng = random.Random(0x5EED + bits)
    for m in moduli(rng, bits):
        for _ in range(3):
            x, y = rng.getrandbits(2 * bits + 3), rng.getrandbits(bits + 1)
            e = rng.getrandbits(min(bits, 2048))
            assert modred.reduce(x, m) == x % m
            assert modred.mulmod(x, y, m) == x * y % m
            assert modred.powmod(x, e, m) == pow(x, e, m)


@pytest.mark.parametrize("algo", modred.algorithms())
def test_every_algorithm_where_it_applies(algo):
    rng = random.Random(0xA160)
    special = [2**127 - 1, 2**255 - 19, 2**256 - 2**224 + 2**192 + 2**96 - 1, 2**521 - 1, 2**192 - 2**64 - 1]
    candidates = special + [m for bits in (64, 200, 1024) for m in moduli(rng, bits)]
    applied = 0
    for m in candidates:
        try:
            ctx = modred.Modulus(m, algo=algo)
        except ValueError as e:
            assert "does not apply" in str(e)
            continue
        applied += 1
        assert ctx.algorithm == algo or algo == "auto"
        x, y, e = rng.randrange(m), rng.randrange(m), rng.getrandbits(m.bit_length())
        assert modred.powmod(x, e, m, algo=algo) == pow(x, e, m)
        assert modred.mulmod(x, y, m, algo=algo) == x * y % m
        assert modred.reduce(x * y, m, algo=algo) == x * y % m
        assert ctx.mul(x, y) == x * y % m
        assert ctx.sqr(x) == x * x % m
        assert ctx.pow(x, e) == pow(x, e, m)
        assert ctx.reduce(x * y) == x * y % m
    assert applied > 0, f"{algo} applied to none of the moduli"


def test_edge_values():
    for m in [1, 2, 3, 2**64 - 1, 2**64, 2**64 + 1, 2**128 - 1, 2**521 - 1]:
        for x in [0, 1, m - 1, m, m + 1, m * m - 1, m * m, 2 * m * m + 5]:
            assert modred.reduce(x, m) == x % m
            assert modred.mulmod(x, x + 1, m) == x * (x + 1) % m
            for e in [0, 1, 2, 65537, m]:
                assert modred.powmod(x, e, m) == pow(x, e, m)


def test_negative_operands_follow_python():
    m = 1000003
    for x in [-1, -5, -m, -m - 1, -(2**300) - 7]:
        assert modred.reduce(x, m) == x % m
        assert modred.mulmod(x, 12345, m) == x * 12345 % m
        assert modred.mulmod(x, -x, m) == x * -x % m
        assert modred.powmod(x, 3, m) == pow(x, 3, m)
        assert modred.powmod(x, 4, 2**130 + 1) == pow(x, 4, 2**130 + 1)


def test_negative_exponents_and_inverses_follow_python():
    rng = random.Random(0x1A7)
    for bits in (2, 64, 127, 521, 2048):
        m = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        for _ in range(5):
            x, e = rng.getrandbits(bits + 3) - (1 << bits), rng.getrandbits(bits)
            try:
                want = pow(x, -1, m)
            except ValueError:
                with pytest.raises(ValueError):
                    modred.invert(x, m)
                continue
            assert modred.invert(x, m) == want
            assert modred.powmod(x, -e, m) == pow(x, -e, m)
            ctx = modred.Modulus(m)
            assert ctx.inverse(x) == want and int(ctx.inverse(ctx.residue(x))) == want
            assert ctx.pow(x, -3) == pow(x, -3, m) and int(ctx.residue(x) ** -3) == pow(x, -3, m)
            assert modred.powmod_base_list([x, x + m], -e, m) == [pow(x, -e, m)] * 2
            assert modred.powmod_exp_list(x, [-1, 0, e, -e], m) == [pow(x, f, m) for f in (-1, 0, e, -e)]
    assert modred.invert(5, 1) == 0 == pow(5, -1, 1)


def test_bool_and_index_objects_are_integers():
    class Idx:
        def __init__(self, v):
            self.v = v

        def __index__(self):
            return self.v

    assert modred.powmod(True, 5, 7) == 1
    assert modred.powmod(Idx(3), Idx(4), Idx(1000)) == 81
    assert modred.mulmod(False, 9, 7) == 0


@given(
    st.integers(min_value=-(2**600), max_value=2**600),
    st.integers(min_value=-(2**600), max_value=2**600),
    st.integers(min_value=1, max_value=2**600),
)
def test_hypothesis_against_pow(b, e, m):
    try:
        want = pow(b, e, m)
    except ValueError:
        with pytest.raises(ValueError, match="not invertible"):
            modred.powmod(b, e, m)
    else:
        assert modred.powmod(b, e, m) == want
    assert modred.mulmod(b, e, m) == b * e % m
    assert modred.reduce(b, m) == b % m


@pytest.mark.skipif(gmpy2 is None, reason="gmpy2 is not installed")
@pytest.mark.parametrize("bits", [64, 256, 1024, 2048, 4096])
def test_against_gmpy2(bits):
    rng = random.Random(0x6A9 + bits)
    for m in moduli(rng, bits):
        b, e = rng.getrandbits(bits), rng.getrandbits(bits)
        assert modred.powmod(b, e, m) == int(gmpy2.powmod(b, e, m))
        bases = [rng.getrandbits(bits) for _ in range(5)]
        exps = [rng.getrandbits(bits) for _ in range(5)]
        assert modred.powmod_base_list(bases, e, m) == [int(v) for v in gmpy2.powmod_base_list(bases, e, m)]
        assert modred.powmod_exp_list(b, exps, m) == [int(v) for v in gmpy2.powmod_exp_list(b, exps, m)]
