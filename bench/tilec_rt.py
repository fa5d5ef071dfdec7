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

The benchmarks also compare tilec's two back ends (issue 16): PTX (a bundle's
kernels/NAME.ptx) and CUDA C++ (kernels-cuda/NAME.cu, compiled by the runtime
with NVRTC at load, or kernels-cuda-ptx/NAME.ptx precompiled by
bin/tilec-nvrtc). add_backend_arguments() gives a script --cuda-kernels DIR and
--tilec-only, kernel_path() finds a kernel file in either folder, and
backend_fields() writes the JSON fields of one kernel timed from both.
"""

import ctypes
import os
import struct
import time

__all__ = ["TilecError", "Context", "Module", "Kernel", "library_path",
           "add_backend_arguments", "kernel_path", "missing_kernels", "load_kernel",
           "backend_fields", "print_table"]


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
        """Loads a PTX file carrying `// tilec.kernel` lines (or a `.cu` file
        of tilec's CUDA C++ back end, compiled with NVRTC; or a `.cubin` with
        its `.json` sidecar)."""
        return Module(self, path=path)

    def load_ptx(self, text):
        """Loads PTX text."""
        return Module(self, text=text)

    def synchronize(self):
        _check(self._lib.tilec_context_synchronize(self._handle))


class Module:
    """A loaded module; `path` is its file (None for PTX text) and `load_ms`
    the wall time of the load: for a `.cu` file NVRTC's compile plus the
    driver's (PTX to SASS, which the driver's JIT cache may shorten); for a
    `.ptx` file the driver's alone."""

    def __init__(self, context, path=None, text=None):
        self._lib = context._lib
        self._context = context  # keeps the context handle alive
        self._handle = ctypes.c_void_p()
        self.path = path
        start = time.perf_counter()
        if path is not None:
            _check(self._lib.tilec_module_load_file(context._handle, os.fsencode(path),
                                                    ctypes.byref(self._handle)))
        else:
            _check(self._lib.tilec_module_load_ptx(context._handle, text.encode(),
                                                   ctypes.byref(self._handle)))
        self.load_ms = (time.perf_counter() - start) * 1e3

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
        self.path, self.load_ms = module.path, module.load_ms
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


# The two back ends (issue 16) -------------------------------------------------

def add_backend_arguments(parser):
    """--cuda-kernels DIR and --tilec-only, for a benchmark of tilec kernels."""
    parser.add_argument(
        "--cuda-kernels", metavar="DIR",
        help="a second folder with the same kernel file names from the CUDA C++ back end: "
             "NAME.ptx from bin/tilec-nvrtc (kernels-cuda-ptx) or NAME.cu, compiled by the "
             "runtime with NVRTC at load; each tilec kernel is also checked and timed from "
             "it, interleaved with the PTX one, as 'tilec cuda', and the ratio cuda/ptx "
             "printed (PTX time / CUDA time: > 1 means the CUDA C++ build is faster)")
    parser.add_argument(
        "--tilec-only", action="store_true",
        help="skip the peers (Triton, torch, cuBLAS, cuDNN, ...): time only tilec's kernels, "
             "to compare its two back ends quickly; the torch references that check the "
             "outputs stay")


def kernel_path(folder, name):
    """The file of kernel `name` (a file name X.ptx, or a stem X) in `folder`:
    X.ptx if it exists, else X.cu (CUDA C++ from tilec --emit=cuda, which the
    runtime compiles with NVRTC) if that exists, else X.ptx (so the error
    names the file expected)."""
    stem = name[:-len(".ptx")] if name.endswith(".ptx") else name
    ptx = os.path.join(folder, stem + ".ptx")
    cu = os.path.join(folder, stem + ".cu")
    return ptx if os.path.exists(ptx) or not os.path.exists(cu) else cu


def missing_kernels(folder, names):
    """The kernel_path()s of `names` in `folder` that do not exist."""
    paths = [kernel_path(folder, n) for n in names]
    return sorted({p for p in paths if not os.path.exists(p)})


def load_kernel(ctx, folder, name, kernel):
    """Kernel `kernel` of file `name` in `folder` (kernel_path), loaded in ctx."""
    return ctx.load_file(kernel_path(folder, name)).kernel(kernel)


def backend_fields(ptx, cuda, ptx_ms, cuda_ms, ratio=None, label=None, shape=None,
                   work=None, unit="ms"):
    """The JSON fields of one tilec kernel timed from both back ends: `ptx`
    and `cuda` are its two Kernels (or their file paths), `ptx_ms` and
    `cuda_ms` their times in ms. `ratio` is the script's estimate of PTX
    time / CUDA time (the median of per-round ratios where it interleaves),
    else ptx_ms / cuda_ms. `work` (bytes or flops) and `unit` give each
    side's throughput in bench/backends_summary.py's table (work / 1e12 per
    second: TB/s or TFLOP/s), else its time in ms; `label` names the kernel
    there (default: the PTX file's stem) and `shape` the problem.

    Fields: cuda_over_ptx (> 1: the CUDA C++ build is faster), tilec_ptx_ms,
    tilec_cuda_ms, tilec_cuda_file, tilec_load_ms and tilec_cuda_load_ms
    (ctx.load_file's wall time: NVRTC plus the driver for a .cu, the driver
    alone for a .ptx), and "backends" (the summary's row)."""
    ptx_path = getattr(ptx, "path", ptx)
    cuda_path = getattr(cuda, "path", cuda)

    def value(ms):
        return ms if work is None else work / (ms * 1e-3) / 1e12

    return {
        "cuda_over_ptx": ratio if ratio is not None else ptx_ms / cuda_ms,
        "tilec_ptx_ms": ptx_ms, "tilec_cuda_ms": cuda_ms,
        "tilec_cuda_file": os.path.basename(cuda_path or ""),
        "tilec_load_ms": getattr(ptx, "load_ms", None),
        "tilec_cuda_load_ms": getattr(cuda, "load_ms", None),
        "backends": {
            "kernel": label or os.path.splitext(os.path.basename(ptx_path or ""))[0],
            "shape": shape, "unit": unit if work is not None else "ms",
            "ptx": value(ptx_ms), "cuda": value(cuda_ms),
        },
    }


def print_table(lines, left):
    """Prints `lines` (the header first, then rows of strings) as aligned
    columns, the first `left` left-aligned and the rest right-aligned, with a
    rule under the header."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    for i, line in enumerate(lines):
        print("  ".join(cell.ljust(w) if j < left else cell.rjust(w)
                        for j, (cell, w) in enumerate(zip(line, widths))))
        if i == 0:
            print("  ".join("-" * w for w in widths))
