import triton
import triton.language as tl


@triton.jit
def k_rtz(x_ptr, h_ptr, b_ptr, d_ptr, f_ptr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs)
    tl.store(h_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rtz"))
    tl.store(b_ptr + offs, x.to(tl.bfloat16, fp_downcast_rounding="rtz"))
    tl.store(h_ptr + 64 + offs, x.to(tl.float16, fp_downcast_rounding="rtne"))
    d = tl.load(d_ptr + offs)
    tl.store(f_ptr + offs, d.to(tl.float32, fp_downcast_rounding="rtz"))
    # The same type: the value itself, as in Triton (no rounding, no error).
    tl.store(f_ptr + 64 + offs, x.to(tl.float32, fp_downcast_rounding="rtz"))
