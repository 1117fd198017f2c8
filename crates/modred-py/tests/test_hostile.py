"""Hostile arguments: every one an exception of the right type with the library's message,
never a crash or a wrong answer."""

import pytest

import modred

BAD_TYPES = [1.0, 2.5, "7", b"7", None, [7], 3j, object()]


@pytest.mark.parametrize("bad", BAD_TYPES, ids=repr)
def test_non_integers_are_type_errors(bad):
    with pytest.raises(TypeError, match="must be an int"):
        modred.powmod(bad, 3, 7)
    with pytest.raises(TypeError, match="must be an int"):
        modred.powmod(2, bad, 7)
    with pytest.raises(TypeError, match="must be an int"):
        modred.mulmod(2, 3, bad)
    with pytest.raises(TypeError, match="must be an int"):
        modred.reduce(bad, 7)
    with pytest.raises(TypeError, match="must be an int"):
        modred.Modulus(bad)
    with pytest.raises(TypeError):
        modred.powmod_base_list([1, bad], 3, 7)


def test_zero_modulus_is_zero_division():
    for f in (lambda: modred.powmod(2, 3, 0), lambda: modred.mulmod(2, 3, 0), lambda: modred.reduce(2, 0),
              lambda: modred.Modulus(0), lambda: modred.powmod_base_list([2], 3, 0)):
        with pytest.raises(ZeroDivisionError, match="the modulus must not be zero"):
            f()
    with pytest.raises(ZeroDivisionError, match=r"moduli\[1\]"):
        modred.powmod_many([2, 2], [3, 3], [5, 0])


def test_negative_modulus_and_exponent_are_value_errors():
    with pytest.raises(ValueError, match="must be positive"):
        modred.powmod(2, 3, -7)
    with pytest.raises(ValueError, match="must be positive"):
        modred.Modulus(-(2**200))
    with pytest.raises(ValueError, match="must not be negative"):
        modred.Modulus(7).pow_ct(2, -3)
    # Negative exponents: the inverse's power, as Python's pow; no inverse, Python's error.
    with pytest.raises(ValueError, match="base is not invertible for the given modulus"):
        modred.powmod(6, -1, 9)
    with pytest.raises(ValueError, match="x is not invertible"):
        modred.invert(0, 7)
    with pytest.raises(ValueError, match=r"bases\[1\] is not invertible"):
        modred.powmod_base_list([2, 3, 4], -2, 9)
    with pytest.raises(ValueError, match="b is not invertible"):
        modred.powmod_exp_list(3, [1, -2], 9)
    with pytest.raises(ValueError, match=r"bases\[0\] is not invertible"):
        modred.powmod_many([3], [-1], [6])


def test_algorithms_that_do_not_apply_or_do_not_exist():
    with pytest.raises(ValueError, match="montgomery does not apply to this modulus"):
        modred.powmod(2, 3, 10, algo="montgomery")
    with pytest.raises(ValueError, match="unknown algorithm 'fast'.*known: auto"):
        modred.powmod(2, 3, 7, algo="fast")
    with pytest.raises(ValueError, match="pseudo-mersenne does not apply"):
        modred.Modulus(1000003, algo="pseudo-mersenne")
    with pytest.raises(TypeError):
        modred.powmod(2, 3, 7, algo=5)
    with pytest.raises(ValueError, match=r"moduli\[0\]: montgomery does not apply"):
        modred.powmod_many([2], [3], [10], algo="montgomery")


def test_forced_bounds_are_enforced():
    m = 2**127 - 1
    with pytest.raises(ValueError, match="out of range for barrett"):
        modred.reduce(2**300, m, algo="barrett")
    assert modred.reduce(2**300, m) == 2**300 % m


def test_pow_ct_refusals():
    with pytest.raises(ValueError, match="does not apply"):
        modred.Modulus(10).pow_ct(3, 5)
    with pytest.raises(ValueError, match="exponent must be below 2\\^64"):
        modred.Modulus(1000003).pow_ct(3, 2**64)


def test_huge_numbers():
    m = (1 << 200_003) - 1  # not prime; any modulus is fine
    x = (1 << 400_000) + 12345
    assert modred.reduce(x, m) == x % m
    assert modred.mulmod(x, x + 1, m) == x * (x + 1) % m


def test_list_lengths_must_match():
    with pytest.raises(ValueError, match="same length"):
        modred.powmod_many([1, 2], [3], [5, 7])
    with pytest.raises(ValueError, match="threads must be at least 1"):
        modred.powmod_base_list([1], 2, 7, threads=0)
    with pytest.raises(TypeError):
        modred.powmod_base_list(5, 2, 7)  # not iterable
    assert modred.powmod_base_list([], 2, 7) == []
    assert modred.powmod_many([], [], []) == []


def test_work_limits():
    m = (1 << 65_537) - 1
    e = (1 << 65_536) + 1
    # Refused at once, naming the estimate and how to lift the limit.
    with pytest.raises(ValueError, match="too much work.*max_work=None"):
        modred.powmod(3, e, m, max_work=10**6)
    with pytest.raises(ValueError, match="too much work"):
        modred.powmod_base_list([2, 3], e, m, max_work=10**6)
    with pytest.raises(ValueError, match="too much work: an exponentiation to a 65537-bit"):
        modred.powmod_many([3], [e], [m], max_work=10**6)
    with pytest.raises(ValueError, match="too much work"):
        modred.Modulus(m, algo="radix2-montgomery", max_work=10**6)
    md = modred.Modulus(1000003, max_work=10**5)
    assert md.max_work == 10**5
    assert "max_work=100000" in repr(md)
    with pytest.raises(ValueError, match="too much work"):
        md.pow(3, 1 << 100_000)
    assert md.pow(3, 1 << 100) == pow(3, 1 << 100, 1000003)
    # A limit never changes an answer; None lifts it.
    assert modred.powmod(3, 10**40, 2**127 - 1, max_work=None) == pow(3, 10**40, 2**127 - 1)
    assert modred.Modulus(97, max_work=None).max_work is None
    with pytest.raises(OverflowError):  # as Python's own conversions to unsigned
        modred.powmod(3, 5, 7, max_work=-1)
    with pytest.raises(TypeError):
        modred.powmod(3, 5, 7, max_work="lots")


def test_memory_limits():
    # Hong keeps a k²-digit table per multiplicand: at 2**20 bits, 2 GiB; refused at once
    # under the default 1 GiB, naming the need and how to lift the limit.
    m = (1 << (1 << 20)) + 1
    with pytest.raises(ValueError, match="too much memory.*max_memory=None"):
        modred.Modulus(m, algo="hong")
    with pytest.raises(ValueError, match="too much memory"):
        modred.mulmod(3, 5, m, algo="hong")
    # A tight limit refuses what the default allows, in every form.
    m = (1 << 4096) + 1
    for call in (
        lambda: modred.powmod(3, 5, m, max_memory=4096),
        lambda: modred.mulmod(3, 5, m, max_memory=4096),
        lambda: modred.reduce(m + 5, m, max_memory=4096),
        lambda: modred.powmod_base_list([2, 3], 5, m, max_memory=4096),
        lambda: modred.powmod_exp_list(2, [3, 5], m, max_memory=4096),
        lambda: modred.powmod_many([3], [5], [m], max_memory=4096),
    ):
        with pytest.raises(ValueError, match="too much memory"):
            call()
    md = modred.Modulus(1000003, max_memory=1 << 20)
    assert md.max_memory == 1 << 20 and "max_memory=1048576" in repr(md)
    assert md.pow(3, 1 << 100) == pow(3, 1 << 100, 1000003)
    assert modred.Modulus(97, max_memory=None).max_memory is None
    assert modred.Modulus(97).max_memory == 2**30 and "max_memory" not in repr(modred.Modulus(97))
    # A limit never changes an answer.
    assert modred.powmod(3, 10**40, m, max_memory=None) == pow(3, 10**40, m)
    with pytest.raises(OverflowError):
        modred.mulmod(3, 5, 7, max_memory=-1)
