import triton
import triton.language as tl


@triton.jit
def k_dtypes(x_ptr, u_ptr, f8_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.static_assert(x.dtype.is_fp16() and x.dtype.is_floating())
    tl.static_assert(x.dtype.is_standard_floating() and not x.dtype.is_int())
    tl.static_assert(not x.dtype.is_bf16() and not x.dtype.is_fp8())
    tl.static_assert(x.type.is_block() and not x.type.is_fp16())
    tl.static_assert(x.type.element_ty == tl.float16)
    tl.static_assert(x.type.scalar.is_fp16() and x.type.numel == 16)
    tl.static_assert(x_ptr.dtype.is_ptr() and x_ptr.type.is_ptr())
    tl.static_assert(x_ptr.dtype.element_ty.is_fp16())
    tl.static_assert(x_ptr.type.element_ty == tl.float16)
    u = tl.load(u_ptr)
    tl.static_assert(u.dtype.is_uint32() and u.dtype.is_int_unsigned())
    tl.static_assert(not u.dtype.is_int_signed() and u.dtype.is_int())
    m = x > 0
    tl.static_assert(m.dtype.is_int1() and m.dtype.is_bool())
    tl.static_assert(m.dtype.is_int_unsigned() and m.dtype.is_int())
    pid = tl.program_id(0)
    tl.static_assert(pid.dtype.is_int32() and pid.dtype.is_int_signed())
    tl.static_assert(pid.type == tl.int32 and not pid.type.is_block())
    f8 = tl.load(f8_ptr)
    tl.static_assert(f8.dtype.is_fp8() and f8.dtype.is_fp8e4nv())
    tl.static_assert(not f8.dtype.is_standard_floating())
    tl.static_print("fp16", x.dtype.name, x.dtype.primitive_bitwidth,
                    x.dtype.itemsize, x.dtype.fp_mantissa_width,
                    x.dtype.exponent_bias, x.type.shape)
    tl.static_print("bf16", tl.bfloat16.fp_mantissa_width,
                    tl.bfloat16.exponent_bias, tl.float64.exponent_bias)
    tl.static_print("fp8e4nv", f8.dtype.name, f8.dtype.fp_mantissa_width,
                    f8.dtype.exponent_bias)
    tl.static_print("u32", u.dtype.name, u.dtype.int_bitwidth,
                    u.dtype.int_signedness, pid.dtype.int_signedness)
    tl.static_print("ptr", x_ptr.dtype.primitive_bitwidth, m.dtype.name)
    tl.store(out_ptr + tl.arange(0, 16), x.to(tl.float32) + u + f8.to(tl.float32))


@triton.jit
def k_numel(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16)[:, None] + tl.arange(0, 4)[None, :])
    tl.static_print("numel", x.numel, tl.program_id(0).numel)


@triton.jit
def k_typo(x_ptr):
    x = tl.load(x_ptr)
    if x.dtype.primitve_bitwidth == 16:
        tl.store(x_ptr, x)


@triton.jit
def k_int_range(x_ptr, u_ptr):
    x = tl.load(x_ptr)
    u = tl.load(u_ptr)
    tl.static_print("range", tl.int8.get_int_max_value(), tl.int8.get_int_min_value(),
                    u.dtype.get_int_max_value(), tl.int64.get_int_min_value())
    tl.static_assert(x.dtype.to_int_type() == tl.int32)
    tl.static_assert(tl.bfloat16.to_int_type() == tl.int16)
