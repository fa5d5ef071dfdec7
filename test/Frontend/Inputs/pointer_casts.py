"""Casts between int64 addresses and pointers (Triton's semantic.cast):
pointer-casts.test. Valid Triton 3.6."""
import triton
import triton.language as tl


@triton.jit
def gather_kernel(addrs, out, N, BLOCK: tl.constexpr):
    """out[i] = *addrs[i]: a tile of int64 addresses read as fp32 pointers."""
    offs = tl.arange(0, BLOCK)
    a = tl.load(addrs + offs, mask=offs < N, other=0)
    p = a.to(tl.pointer_type(tl.float32))
    tl.store(out + offs, tl.load(p, mask=offs < N), mask=offs < N)


@triton.jit
def roundtrip_kernel(x_ptr, out):
    """A pointer as int64 and back as another pointee type; non-null as int1."""
    addr = x_ptr.to(tl.int64)
    bits = (addr + 4).to(tl.pointer_type(tl.int32))
    as_float = x_ptr.to(tl.pointer_type(tl.float32))
    tl.store(out, tl.load(bits) + tl.load(as_float).to(tl.int32, bitcast=True) +
             x_ptr.to(tl.int1).to(tl.int32))


@triton.jit
def narrow_address_kernel(addrs, out):
    a = tl.load(addrs)
    tl.store(out, tl.load(a.to(tl.pointer_type(tl.float32))))


@triton.jit
def shared_space_kernel(addrs, out):
    a = tl.load(addrs)
    tl.store(out, tl.load(a.to(tl.pointer_type(tl.float32, 3))))
