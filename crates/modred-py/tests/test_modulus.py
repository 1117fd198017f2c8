"""Modulus and Residue: the methods against Python's arithmetic, residues that belong to
their modulus, pickling, explain()."""

import pickle
import random

import pytest

import modred


@pytest.mark.parametrize("bits", [1, 5, 64, 65, 255, 256, 521, 1024, 2048, 4096, 8192])
def test_methods_against_python(bits):
    rng = random.Random(0x40D + bits)
    for m in {(1 << (bits - 1)) | rng.getrandbits(max(bits - 1, 0)) | 1, max(1, (1 << bits) - 2)}:
        ctx = modred.Modulus(m)
        assert ctx.modulus == m and ctx.bits == m.bit_length()
        x, y, e = rng.getrandbits(bits + 9), -rng.getrandbits(bits), rng.getrandbits(bits)
        assert ctx.reduce(x) == x % m
        assert ctx.reduce(y) == y % m
        assert ctx.mul(x, y) == x * y % m
        assert ctx.sqr(y) == y * y % m
        assert ctx.pow(x, e) == pow(x, e, m)
        if m % 2:
            assert ctx.pow_ct(x, e) == pow(x, e, m)
        a, b = ctx.residue(x), ctx.residue(y)
        assert int(a) == x % m and int(b) == y % m
        assert int(a + b) == (x + y) % m
        assert int(a - b) == (x - y) % m
        assert int(a * b) == x * y % m
        assert int(-a) == -x % m
        assert int(a**e) == pow(x, e, m)
        assert int(7 - a) == (7 - x) % m and int(3 * a) == 3 * x % m and int(a + 5) == (x + 5) % m
        assert isinstance(ctx.mul(a, y), modred.Residue) and int(ctx.mul(a, y)) == x * y % m
        assert isinstance(ctx.sqr(a), modred.Residue) and isinstance(ctx.pow(a, 3), modred.Residue)
        if m % 2:
            assert int(ctx.pow_ct(a, e)) == pow(x, e, m)


def test_residues_belong_to_their_modulus():
    m1, m2, same = modred.Modulus(1000003), modred.Modulus(999983), modred.Modulus(1000003)
    a, b = m1.residue(5), m2.residue(5)
    for f in (lambda: a * b, lambda: a + b, lambda: a - b, lambda: m1.mul(a, b), lambda: m2.sqr(a),
              lambda: m2.pow(a, 3), lambda: same.mul(a, a), lambda: m2.pow_ct(a, 3)):
        with pytest.raises(ValueError, match="another Modulus"):
            f()
    wide = modred.Modulus(2**521 - 1)
    with pytest.raises(ValueError, match="another Modulus"):
        wide.mul(a, 3)
    assert a != same.residue(5) and a == m1.residue(5) and a != 5
    assert len({a, m1.residue(5), m1.residue(1000008)}) == 1
    with pytest.raises(TypeError, match="not ordered"):
        a < m1.residue(6)
    with pytest.raises(TypeError, match="takes no modulus"):
        pow(a, 2, 7)


def test_algorithm_explain_and_repr():
    ctx = modred.Modulus(2**256 - 2**224 + 2**192 + 2**96 - 1)
    assert ctx.algorithm in modred.algorithms()
    text = ctx.explain()
    assert "form: nist" in text and "auto picks" in text and "this Modulus (auto)" in text
    forced = modred.Modulus(1000003, algo="barrett")
    assert forced.algorithm == "barrett" and "this Modulus (forced): barrett" in forced.explain()
    assert repr(forced) == "Modulus(1000003, algo='barrett')"
    assert repr(forced.residue(12)) == "Residue(12, mod 1000003)" and str(forced.residue(12)) == "12"
    assert not forced.residue(1000003) and forced.residue(1)


def test_pickling_keeps_modulus_and_algorithm():
    ctx = modred.Modulus(2**127 - 1, algo="pseudo-mersenne")
    back = pickle.loads(pickle.dumps(ctx))
    assert back.modulus == ctx.modulus and back.algorithm == "pseudo-mersenne"
    r = pickle.loads(pickle.dumps(ctx.residue(-3)))
    assert int(r) == 2**127 - 4 and r.modulus.algorithm == "pseudo-mersenne"
    for limit in (None, 12345):
        back = pickle.loads(pickle.dumps(modred.Modulus(97, max_work=limit)))
        assert back.max_work == limit
    for limit in (None, 1 << 20):
        back = pickle.loads(pickle.dumps(modred.Modulus(97, max_memory=limit)))
        assert back.max_memory == limit


def test_module_facts():
    assert modred.algorithms()[0] == "auto" and "montgomery" in modred.algorithms()
    assert isinstance(modred.cpu_features(), list)
    assert modred.__version__
    assert [n for n in range(60) if modred.is_probable_prime(n)] == [
        2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59]
    assert modred.is_probable_prime(2**521 - 1) and not modred.is_probable_prime(2**523 - 1)
    assert not modred.is_probable_prime(-7)
