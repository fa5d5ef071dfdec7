import triton
import triton.language as tl


@triton.jit
def k_tanh(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # The common use: one fp32 per asm, pure.
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < n)
    y = tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [x],
                                  dtype=tl.float32, is_pure=True, pack=1)
    tl.store(y_ptr + o, y, mask=o < n)


@triton.jit
def k_unpack(a_ptr, b_ptr, c_ptr, d_ptr, BLOCK: tl.constexpr):
    # Triton's docstring example: 4 uint8 in one register, two results.
    o = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + o)
    b = tl.load(b_ptr + o)
    (c, d) = tl.inline_asm_elementwise(
        asm="""
        {
            .reg .b8 tmp<4>;
            mov.b32 {tmp0, tmp1, tmp2, tmp3}, $8;
            cvt.u32.u8 $0, tmp0;
            cvt.u32.u8 $1, tmp1;
            cvt.u32.u8 $2, tmp2;
            cvt.u32.u8 $3, tmp3;
        }
        cvt.rn.f32.s32 $4, $0;
        cvt.rn.f32.s32 $5, $1;
        cvt.rn.f32.s32 $6, $2;
        cvt.rn.f32.s32 $7, $3;
        max.f32 $4, $4, $9;
        max.f32 $5, $5, $10;
        max.f32 $6, $6, $11;
        max.f32 $7, $7, $12;
        """,
        constraints=("=r,=r,=r,=r,=r,=r,=r,=r,"
                     "r,r,r,r,r"),
        args=[a, b],
        dtype=(tl.int32, tl.float32),
        is_pure=True,
        pack=4,
    )
    tl.store(c_ptr + o, c)
    tl.store(d_ptr + o, d)


@triton.jit
def k_broadcast(x_ptr, y_ptr, s, BLOCK: tl.constexpr):
    # A row, a column and a scalar broadcast together (no promotion: the
    # int32 scalar stays int32 next to the float tiles); a Python int is an
    # int32 constant.
    r = tl.arange(0, BLOCK)
    row = tl.load(x_ptr + r)[None, :]
    col = tl.load(x_ptr + r)[:, None]
    z = tl.inline_asm_elementwise("add.f32 $0, $1, $2; add.s32 $0, $0, $3; mul.lo.s32 $0, $0, $4;",
                                  "=r,r,r,r,r", [row, col, s, 3],
                                  tl.float32, True, 1)
    tl.store(y_ptr + r[:, None] * BLOCK + r[None, :], z)


@triton.jit
def k_scalar(out_ptr, s):
    # Scalars in, a scalar out; side effects (is_pure=False): not removed.
    t = tl.inline_asm_elementwise("mov.u32 $0, %clock;", "=r", [], tl.uint32,
                                  False, 1)
    u = tl.inline_asm_elementwise("shl.b32 $0, $1, 2;", "=r,r", [s], tl.int32,
                                  True, 1)
    v = tl.inline_asm_elementwise("mov.u32 $0, %clock;", "=r", [], tl.uint32,
                                  False, 1)
    tl.store(out_ptr, u + (v - t).to(tl.int32))


@triton.jit
def k_half(x_ptr, y_ptr, BLOCK: tl.constexpr):
    # f16 pairs share a register: pack 4 is 2 registers in, 2 out.
    o = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o)
    y = tl.inline_asm_elementwise("add.rn.f16x2 $0, $2, $2; add.rn.f16x2 $1, $3, $3;",
                                  "=r,=r,r,r", [x], tl.float16, True, 4)
    tl.store(y_ptr + o, y)
