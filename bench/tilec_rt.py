#!/usr/bin/env python3
"""tilec_rt: a thin ctypes binding over the tilec runtime's C API (tilec/runtime_c.h).

Loads libtilec_runtime.so from $TILEC_RUNTIME_LIB or, in a gpu-bundle, from
../lib next to this file. Kernels launch with torch tensors (their data_ptr())
and Python ints/floats, typed by the kernel's signature, on the current torch
stream. The runtime retains the device's *primary* context, the one torch uses,
so torch must have created it first: Context() does that (torch.cuda.init() and
a one-element tensor) before it calls into the runtime.

    import tilec_rt
    ctx = tilec_rt.Context()
    kernel = ctx.load_file("kernels/add_kernel.ptx").kernel("add_kernel")
    kernel.launch((triton.cdiv(n, 1024),), x, y, out, n)

Every failure raises tilec_rt.TilecError with the runtime's message.
"""

import ctypes
import os
import struct

__all__ = ["TilecError", "Context", "Module", "Kernel", "library_path"]


class TilecError(RuntimeError):
    """A tilec runtime call failed; the message is tilec_last_error()."""


# tilec_arg_kind (runtime.h).
ARG_PTR, ARG_I1, ARG_I8, ARG_I16, ARG_I32, ARG_I64 = 0, 1, 2, 3, 4, 5
ARG_U8, ARG_U16, ARG_U32, ARG_U64 = 6, 7, 8, 9
ARG_F16, ARG_BF16, ARG_F32, ARG_F64 = 10, 11, 12, 13
ARG_TENSORDESC = 14

_SCALAR_KIND = {
    "i1": ARG_I1, "i8": ARG_I8, "i16": ARG_I16, "i32": ARG_I32, "i64": ARG_I64,
    "u8": ARG_U8, "u16": ARG_U16, "u32": ARG_U32, "u64": ARG_U64,
    "fp16": ARG_F16, "bf16": ARG_BF16, "fp32": ARG_F32, "fp64": ARG_F64,
}
_SIGNED = {ARG_I1, ARG_I8, ARG_I16, ARG_I32, ARG_I64}


class _Value(ctypes.Union):
    _fields_ = [("u", ctypes.c_uint64), ("i", ctypes.c_int64), ("f", ctypes.c_double)]


class _Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int32), ("pad", ctypes.c_int32), ("value", _Value)]


class _TensorDesc(ctypes.Structure):
    """tilec_tensordesc: base address, rank, shape and strides in elements."""
    _fields_ = [("base", ctypes.c_uint64), ("rank", ctypes.c_uint32),
                ("pad", ctypes.c_uint32), ("shape", ctypes.c_int64 * 5),
                ("strides", ctypes.c_int64 * 5)]


def _split_signature(text):
    """Signature entries; commas inside `tensordesc<fp16[64,64]>` do not split."""
    entries, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[<":
            depth += 1
        elif ch in "]>" and depth:
            depth -= 1
        elif ch == "," and depth == 0:
            entries.append(text[start:i])
            start = i + 1
    if text:
        entries.append(text[start:])
    return entries


def library_path():
    """$TILEC_RUNTIME_LIB, else <this file>/../lib/libtilec_runtime.so."""
    env = os.environ.get("TILEC_RUNTIME_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "lib", "libtilec_runtime.so")


_lib = None


def _library():
    global _lib
    if _lib is not None:
        return _lib
    path = library_path()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise TilecError(f"cannot load the tilec runtime '{path}': {e} "
                         "(set TILEC_RUNTIME_LIB)") from e
    P = ctypes.c_void_p
    sig = {
        "tilec_last_error": (ctypes.c_char_p, []),
        "tilec_context_create": (ctypes.c_int, [ctypes.c_int, ctypes.POINTER(P)]),
        "tilec_context_destroy": (None, [P]),
        "tilec_context_synchronize": (ctypes.c_int, [P]),
        "tilec_module_load_ptx": (ctypes.c_int, [P, ctypes.c_char_p, ctypes.POINTER(P)]),
        "tilec_module_load_file": (ctypes.c_int, [P, ctypes.c_char_p, ctypes.POINTER(P)]),
        "tilec_module_destroy": (None, [P]),
        "tilec_module_get_kernel": (ctypes.c_int, [P, ctypes.c_char_p, ctypes.POINTER(P)]),
        "tilec_kernel_destroy": (None, [P]),
        "tilec_kernel_launch": (ctypes.c_int, [P, ctypes.c_uint32, ctypes.c_uint32,
                                               ctypes.c_uint32, ctypes.POINTER(_Arg),
                                               ctypes.c_size_t, P]),
        "tilec_kernel_name": (ctypes.c_char_p, [P]),
        "tilec_kernel_num_warps": (ctypes.c_int, [P]),
        "tilec_kernel_shared_bytes": (ctypes.c_int64, [P]),
        "tilec_kernel_signature": (ctypes.c_char_p, [P]),
        "tilec_kernel_num_params": (ctypes.c_size_t, [P]),
    }
    for name, (res, args) in sig.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    _lib = lib
    return lib


def _check(rc):
    if rc != 0:
        raise TilecError(_library().tilec_last_error().decode(errors="replace"))


def _bf16_bits(x):
    """float -> bfloat16 bits, round to nearest even (NaN stays NaN)."""
    (bits,) = struct.unpack("<I", struct.pack("<f", float(x)))
    if (bits & 0x7FFFFFFF) > 0x7F800000:
        return (bits >> 16) | 0x40
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def _torch_stream():
    try:
        import torch
    except ImportError:
        return None
    return torch.cuda.current_stream().cuda_stream


class Context:
    """The primary context of CUDA device `device` (default: torch's current one)."""

    def __init__(self, device=None):
        try:
            import torch
            torch.cuda.init()
            if device is None:
                device = torch.cuda.current_device()
            # Make torch create (and retain) the primary context first.
            torch.empty(1, device=f"cuda:{device}")
        except ImportError:
            device = 0 if device is None else device
        self._lib = _library()
        self._handle = ctypes.c_void_p()
        _check(self._lib.tilec_context_create(int(device), ctypes.byref(self._handle)))

    def __del__(self):
        if getattr(self, "_handle", None):
            self._lib.tilec_context_destroy(self._handle)
            self._handle = None

    def load_file(self, path):
        """Loads a PTX file carrying `// tilec.kernel` lines."""
        return Module(self, path=path)

    def load_ptx(self, text):
        """Loads PTX text."""
        return Module(self, text=text)

    def synchronize(self):
        _check(self._lib.tilec_context_synchronize(self._handle))


class Module:
    def __init__(self, context, path=None, text=None):
        self._lib = context._lib
        self._context = context  # keeps the context handle alive
        self._handle = ctypes.c_void_p()
        if path is not None:
            _check(self._lib.tilec_module_load_file(context._handle, os.fsencode(path),
                                                    ctypes.byref(self._handle)))
        else:
            _check(self._lib.tilec_module_load_ptx(context._handle, text.encode(),
                                                   ctypes.byref(self._handle)))

    def __del__(self):
        if getattr(self, "_handle", None):
            self._lib.tilec_module_destroy(self._handle)
            self._handle = None

    def kernel(self, name):
        return Kernel(self, name)


class Kernel:
    """A kernel; launch((gx[, gy[, gz]]), *args, stream=None)."""

    def __init__(self, module, name):
        self._lib = module._lib
        self._module = module
        self._handle = ctypes.c_void_p()
        _check(self._lib.tilec_module_get_kernel(module._handle, name.encode(),
                                                 ctypes.byref(self._handle)))
        self.name = self._lib.tilec_kernel_name(self._handle).decode()
        self.num_warps = self._lib.tilec_kernel_num_warps(self._handle)
        self.shared_bytes = self._lib.tilec_kernel_shared_bytes(self._handle)
        self.signature = self._lib.tilec_kernel_signature(self._handle).decode()
        self.params = _split_signature(self.signature)
        # (is_pointer, kind) per parameter.
        self._kinds = []
        for entry in self.params:
            ty = entry.split(":")[0]
            if ty.startswith("tensordesc<"):
                self._kinds.append((False, ARG_TENSORDESC))
            elif ty.startswith("*"):
                self._kinds.append((True, ARG_PTR))
            else:
                self._kinds.append((False, _SCALAR_KIND[ty]))

    def __del__(self):
        if getattr(self, "_handle", None):
            self._lib.tilec_kernel_destroy(self._handle)
            self._handle = None

    def _convert(self, args):
        if len(args) != len(self._kinds):
            # The runtime words this error; let it.
            return None
        c_args = (_Arg * len(args))()
        c_args._descs = []  # keeps the descriptors alive until the launch
        for i, (arg, (is_ptr, kind)) in enumerate(zip(args, self._kinds)):
            c = c_args[i]
            c.kind = kind
            if kind == ARG_TENSORDESC:
                # Anything with base (a tensor or an address), shape and
                # strides: Triton's TensorDescriptor, for one.
                d = _TensorDesc()
                base = arg.base
                d.base = base.data_ptr() if hasattr(base, "data_ptr") else int(base)
                d.rank = len(arg.shape)
                for r, (n, st) in enumerate(zip(list(arg.shape)[:5], list(arg.strides)[:5])):
                    d.shape[r], d.strides[r] = int(n), int(st)
                c_args._descs.append(d)
                c.value.u = ctypes.addressof(d)
            elif is_ptr:
                c.value.u = arg.data_ptr() if hasattr(arg, "data_ptr") else int(arg)
            elif kind in (ARG_F32, ARG_F64):
                c.value.f = float(arg)
            elif kind == ARG_F16:
                c.value.u = struct.unpack("<H", struct.pack("<e", float(arg)))[0]
            elif kind == ARG_BF16:
                c.value.u = _bf16_bits(arg)
            elif isinstance(arg, float):
                raise TilecError(f"argument {i} of kernel '{self.name}': expected "
                                 f"{self.params[i]}, found a Python float")
            elif kind in _SIGNED:
                c.value.i = int(arg)
            else:
                v = int(arg)
                if v < 0:
                    raise TilecError(f"argument {i} of kernel '{self.name}': "
                                     f"{v} does not fit in {self.params[i]}")
                c.value.u = v
        return c_args

    def launch(self, grid, *args, stream=None):
        """Launches on `stream` (a CUstream as int; default: torch's current stream)."""
        if isinstance(grid, int):
            grid = (grid,)
        g = tuple(grid) + (1,) * (3 - len(grid))
        c_args = self._convert(args)
        if c_args is None:
            c_args = (_Arg * len(args))()  # wrong count: the runtime says so
        if stream is None:
            stream = _torch_stream()
        _check(self._lib.tilec_kernel_launch(self._handle, g[0], g[1], g[2], c_args,
                                             len(args), ctypes.c_void_p(stream or 0)))
