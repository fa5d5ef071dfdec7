import triton
import triton.language as tl


@triton.jit
def k_if(out_ptr, MODE: tl.constexpr, ACT: tl.constexpr = "relu"):
    x = tl.arange(0, 16)
    if MODE == 0:
        y = x + 1
    elif MODE == 1:
        # Dead for MODE 0 and 2: never generated, so never an error.
        y = tl.inline_asm_elementwise("", "", [x], tl.int32, True, 1)
    else:
        y = tl.no_such_function(x)
    if ACT == "relu" and MODE >= 0:
        y = tl.maximum(y, 0)
    elif undefined_name:
        y = y * 2
    z = 3 if MODE == 0 else undefined_name
    tl.store(out_ptr + x, y + z)
