import os

import triton
import triton.language as tl

# Python runs a module top to bottom: a module-level statement reads the
# binding above it. tilec keeps a name's last binding, so it refuses a read
# that would differ (or that Python answers with NameError).
A = 1
B = A + 1
A = 10

C = D + 1
D = 10

BLOCK = 64
if BLOCK > 32:
    BLOCK = 32
HALF = BLOCK // 2


def twice_e():
    return E * 2


E = 3
F = twice_e()
E = 4

M = 8
if os.environ.get("TILEC_READ_ORDER_TEST_UNSET"):
    M = 16
N = M * 2

P = 5
P2 = P * 3


@triton.jit
def k_rebound(X):
    tl.store(X, B)


@triton.jit
def k_before(X):
    tl.store(X, C)


@triton.jit
def k_guarded(X):
    tl.store(X, HALF * 1000 + BLOCK)


@triton.jit
def k_host_function(X):
    tl.store(X, F)


@triton.jit
def k_env(X):
    tl.store(X, N * 1000 + M)


@triton.jit
def k_last(X):
    # A kernel runs after the module: A is 10 here.
    tl.store(X, A * 1000 + P2)


# A def or class below an assignment rebinds the name, as in Python.
REBOUND_BY_DEF = 10


def REBOUND_BY_DEF():
    return 3


CALLED = REBOUND_BY_DEF()


def DEF_THEN_CONSTANT():
    return 4


DEF_THEN_CONSTANT = 7
AFTER = DEF_THEN_CONSTANT + 1

REBOUND_BY_CLASS = 5


class REBOUND_BY_CLASS:
    pass


@triton.jit
def k_def(X):
    tl.store(X, CALLED * 100 + AFTER)


@triton.jit
def k_class(X):
    tl.store(X, REBOUND_BY_CLASS)


UNPACK_A, UNPACK_B = 1, 2


@triton.jit
def k_unpack(X):
    tl.store(X, UNPACK_A)
