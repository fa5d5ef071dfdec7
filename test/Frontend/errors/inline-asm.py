import triton
import triton.language as tl


@triton.jit
def k_asm_not_str(p):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise(1, "=r,r", [x], tl.float32, True, 1)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_constraints_not_str(p):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", None, [x], tl.float32, True, 1)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_args_not_list(p):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", x, tl.float32, True, 1)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_bad_dtype(p):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,=r,r", [x], (tl.float32, 1), True, 1)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_empty_dtype(p):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], (), True, 1)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_runtime_pure(p, flag):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], tl.float32, flag > 0, 1)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_pack_three(p):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $3;", "=r,=r,=r,r,r,r", [x], tl.float32, True, 3)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_pack_runtime(p, k):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], tl.float32, True, k)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_count(p):
    # Four bytes share one register: pack 4 wants 1 input, not 4.
    x = tl.load(p + tl.arange(0, 128)).to(tl.int8)
    y = tl.inline_asm_elementwise("mov.b32 $0, $4;", "=r,=r,=r,=r,r,r,r,r", [x], tl.int32, True, 4)
    tl.store(p + tl.arange(0, 128), y.to(tl.float32))


@triton.jit
def k_order(p):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $1, $0;", "r,=r", [x], tl.float32, True, 1)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_arg_str(p):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r,r", [x, "s"], tl.float32, True, 1)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_shapes(p):
    x = tl.load(p + tl.arange(0, 128))
    z = tl.load(p + tl.arange(0, 64))
    y = tl.inline_asm_elementwise("add.f32 $0, $1, $2;", "=r,r,r", [x, z], tl.float32, True, 1)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_bad_constraint(p):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r{", [x], tl.float32, True, 1)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_bad_operand(p):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $7;", "=r,r", [x], tl.float32, True, 1)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_bad_dollar(p):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $x;", "=r,r", [x], tl.float32, True, 1)
    tl.store(p + tl.arange(0, 128), y)


@triton.jit
def k_bad_tied(p):
    x = tl.load(p + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,1", [x], tl.float32, True, 1)
    tl.store(p + tl.arange(0, 128), y)
