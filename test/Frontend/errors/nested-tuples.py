# Nested compile-time tuples are copied by value: (t, t) doubles the
# work, so the size budget counts nested values (review of issue 9).
import triton
import triton.language as tl

A0 = (1, 2)
A1 = (A0, A0)
A2 = (A1, A1)
A3 = (A2, A2)
A4 = (A3, A3)
A5 = (A4, A4)
A6 = (A5, A5)
A7 = (A6, A6)
A8 = (A7, A7)
A9 = (A8, A8)
A10 = (A9, A9)
A11 = (A10, A10)
A12 = (A11, A11)
A13 = (A12, A12)
A14 = (A13, A13)
A15 = (A14, A14)
A16 = (A15, A15)
A17 = (A16, A16)
A18 = (A17, A17)
A19 = (A18, A18)
A20 = (A19, A19)
A21 = (A20, A20)
A22 = (A21, A21)
A23 = (A22, A22)
A24 = (A23, A23)


@triton.jit
def k_loop(x_ptr):
    t = (1, 2)
    for i in tl.static_range(22):
        t = (t, t)
    tl.store(x_ptr, len(t))


@triton.jit
def k_module(x_ptr):
    tl.store(x_ptr, len(A24))


@triton.jit
def k_small(x_ptr):
    t = (1, 2)
    for i in tl.static_range(10):
        t = (t, t)
    tl.store(x_ptr, len(t) + len(A10))
