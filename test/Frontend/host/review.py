# Host code the review found evaluated differently from Python; each value
# below is what python3 computes (kernel k_values asserts them all).
import triton
import triton.language as tl


def finally_on_break():
    x = 0
    for i in range(3):
        try:
            break
        finally:
            x = 5
    return x


def finally_on_continue():
    seen = []
    for i in range(3):
        try:
            if i == 1:
                continue
            seen.append(i)
        finally:
            seen.append(10 + i)
    return seen


def continue_in_finally_cancels_return():
    for i in range(2):
        try:
            return 0
        finally:
            continue
    return 2


def int_keys():
    d = {}
    d[1] = 'a'
    e = {}
    e[2] = 'b'
    d |= e
    return len(d)


def caught_zero_division():
    try:
        return 1 // 0
    except ArithmeticError:
        return 7


def os_errors():
    try:
        raise PermissionError("no")
    except OSError:
        return 1
    except Exception:
        return 2


def reraise_saved():
    try:
        try:
            raise KeyError("key")
        except KeyError as e:
            try:
                raise ValueError("value")
            except ValueError:
                raise e
    except KeyError:
        return 1
    except ValueError:
        return 2


BIG = 2**53
EXACT = BIG + 1 == BIG


def big_compare():
    return 2**53 + 1 == 2**53


V_BREAK = finally_on_break()
V_CONTINUE = finally_on_continue()
V_CANCEL = continue_in_finally_cancels_return()
V_KEYS = int_keys()
V_ZERO = caught_zero_division()
V_OS = os_errors()
V_RERAISE = reraise_saved()
V_BIG = big_compare()


@triton.jit
def k_values(p):
    tl.static_assert(V_BREAK == 5)
    tl.static_assert(V_CONTINUE == (0, 10, 11, 2, 12))
    tl.static_assert(V_CANCEL == 2)
    tl.static_assert(V_KEYS == 2)
    tl.static_assert(V_ZERO == 7)
    tl.static_assert(V_OS == 1)
    tl.static_assert(V_RERAISE == 1)
    tl.static_assert(not V_BIG)
    tl.store(p, 1)


# Where Python would share a list, changing it in place is refused.
def shared_by_assignment():
    a = b = []
    a.append(1)
    return b


def shared_by_call(f):
    a = [1]
    b = f(a)
    b.append(2)
    return a


def ident(x):
    return x


V_SHARED = shared_by_assignment()
V_SHARED_CALL = shared_by_call(ident)


@triton.jit
def k_shared(p):
    tl.store(p, len(V_SHARED))


@triton.jit
def k_shared_call(p):
    tl.store(p, len(V_SHARED_CALL))


# Module-level code tilec skips still rebinds names: reading them is
# refused, not answered with the earlier value.
X = 1
X = Y = 3
LOOPED = 1
for LOOPED in range(5):
    pass


@triton.jit
def k_chained(p):
    tl.store(p, X)


@triton.jit
def k_looped(p):
    tl.store(p, LOOPED)


def overflow():
    x = -9223372036854775807 - 1
    return x // -1


V_OVERFLOW = overflow()


@triton.jit
def k_overflow(p):
    tl.store(p, V_OVERFLOW)



Z = 1


def reads_before_binding():
    y = Z
    Z = 2
    return y


def catches_unbound():
    try:
        return reads_before_binding()
    except NameError:
        return 5


V_UNBOUND = catches_unbound()


@triton.jit
def k_unbound(p):
    tl.static_assert(V_UNBOUND == 5)
    tl.store(p, 1)
