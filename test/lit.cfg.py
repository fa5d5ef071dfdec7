# -*- Python -*-
# lit configuration of the tilec tests. Features:
#   ptxas  - ptxas is available (every PTX test assembles its output)
#   nvcc   - nvcc is available beside ptxas (the CUDA C++ tests compile theirs)
#   nvrtc  - libnvrtc is installed (the CUDA C++ tests compile theirs with it too)
#   triton-tutorial-03 - Triton 3.6's matmul tutorial is in test/Frontend/Inputs
#   cuda   - a CUDA driver and GPU are present (GPU tests; UNSUPPORTED else)
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "tilec"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Unit",
                   "kernels", "reference", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_obj_root, "test")
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"

llvm_config.use_default_substitutions()
tools = [
    os.path.join(config.tilec_obj_root, "bin", "tilec"),
    os.path.join(config.tilec_obj_root, "bin", "tilec-opt"),
]
config.substitutions.append(("%tilec_src", config.tilec_src_root))
config.substitutions.append(("%tilec_bin", config.tilec_obj_root))
llvm_config.with_system_environment(["PATH"])
llvm_config.with_environment("PATH", os.path.join(config.tilec_obj_root, "bin"),
                             append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Triton's tutorial 03, when someone places it among the inputs (see
# test/Frontend/Inputs/README.md).
if os.path.exists(os.path.join(config.test_source_root, "Frontend", "Inputs",
                               "03-matrix-multiplication.py")):
    config.available_features.add("triton-tutorial-03")

if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
    # nvcc beside it: the CUDA C++ backend's output is compiled with it.
    nvcc = os.path.join(os.path.dirname(config.ptxas), "nvcc")
    if os.path.exists(nvcc):
        config.available_features.add("nvcc")
        config.substitutions.append(("%nvcc", nvcc))
    # NVRTC, as the runtime finds it: the CUDA C++ tests compile with it too.
    import ctypes.util
    lib64 = os.path.join(os.path.dirname(os.path.dirname(config.ptxas)), "lib64")
    if os.path.exists(os.path.join(lib64, "libnvrtc.so")) or \
            ctypes.util.find_library("nvrtc"):
        config.available_features.add("nvrtc")
    # The toolkit's libcuda stub, to link host programs without a driver.
    stubs = os.path.join(os.path.dirname(os.path.dirname(config.ptxas)),
                         "lib64", "stubs")
    cuda_include = os.path.join(os.path.dirname(os.path.dirname(config.ptxas)),
                                "include")
    if os.path.exists(os.path.join(stubs, "libcuda.so")) and \
            os.path.exists(os.path.join(cuda_include, "cuda.h")):
        config.available_features.add("cuda-stubs")
        config.substitutions.append(("%cuda_stubs", stubs))
        config.substitutions.append(("%cuda_include", cuda_include))


def have_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, timeout=20)
        return out.returncode == 0 and b"GPU" in out.stdout
    except Exception:
        return False


if have_gpu():
    config.available_features.add("cuda")
