# tl.inline_asm_elementwise (Triton 3.6): GPU case of SemanticsTests.cpp.
import triton
import triton.language as tl


@triton.jit
def inline_asm_kernel(x_ptr, b_ptr, h_ptr, y_ptr, bx_ptr, bw_ptr, h2_ptr, n,
                      BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    # One int32 per asm, with side effects, and a Python int argument:
    # y = (x << 3) + 7.
    x = tl.load(x_ptr + o, mask=m, other=0)
    y = tl.inline_asm_elementwise("shl.b32 $0, $1, 3;\n\tadd.s32 $0, $0, $2;",
                                  "=r,r,r", [x, 7], dtype=tl.int32,
                                  is_pure=False, pack=1)
    tl.store(y_ptr + o, y, mask=m)
    # Four bytes per asm in one register, two results: the bytes XOR 0x5A
    # (one register out) and each byte widened to int32 (four registers):
    # byte k of the register is element k of the pack, both ways.
    b = tl.load(b_ptr + o, mask=m, other=0)
    bx, bw = tl.inline_asm_elementwise(
        """{
        .reg .b32 w;
        .reg .b8 t<4>;
        mov.b32 w, $5;
        mov.b32 {t0, t1, t2, t3}, w;
        cvt.u32.u8 $1, t0;
        cvt.u32.u8 $2, t1;
        cvt.u32.u8 $3, t2;
        cvt.u32.u8 $4, t3;
        xor.b32 $0, w, 0x5A5A5A5A;
        }""",
        "=r,=r,=r,=r,=r,r", [b], dtype=(tl.uint8, tl.int32), is_pure=True,
        pack=4)
    tl.store(bx_ptr + o, bx, mask=m)
    tl.store(bw_ptr + o, bw, mask=m)
    # Two halves per register: h2 = h + h (exact in fp16 for |h| <= 4).
    h = tl.load(h_ptr + o, mask=m, other=0.0)
    h2 = tl.inline_asm_elementwise("add.rn.f16x2 $0, $1, $1;", "=r,r", [h],
                                   dtype=tl.float16, is_pure=True, pack=2)
    tl.store(h2_ptr + o, h2, mask=m)
