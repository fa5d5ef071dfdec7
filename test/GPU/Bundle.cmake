# The GPU bundle: a relocatable folder carried from a build machine (no GPU
# needed) to the GPU machine:
#   gpu-bundle/bin/tilec-gpu-tests       (stripped)
#   gpu-bundle/bin/tilec-launch-bench    (stripped; bench/launch_overhead.cpp)
#   gpu-bundle/bin/tilec-graph-bench     (stripped; bench/graph_bench.cpp)
#   gpu-bundle/bin/tilec-nvrtc           (stripped; compiles kernels-cuda/*.cu
#                                         with NVRTC as the runtime does)
#   gpu-bundle/lib/libtilec_runtime.so   (stripped)
#   gpu-bundle/kernels/*.ptx             (tilec's output: TILEC_GPU_KERNEL_PTX;
#                                         the tl.dot kernels, their GEMM
#                                         benchmark's among them, only with
#                                         -DTILEC_GPU_DOT_TESTS=ON)
#   gpu-bundle/reference-kernels/*.ptx   (nvcc twins, when built)
#   gpu-bundle/bench/*.py, *.sh            (bench_backends.sh: both back ends)
#   gpu-bundle/examples/*.py             (the .py sources of the kernels, for
#                                         the benchmarks' Triton side)
#   gpu-bundle/run.sh [--sanitize] [--bench] [--quick] [--reference]
# Everything links only libcuda.so.1, libstdc++, libm, libgcc_s and libc and
# refers to its neighbours by relative path.
#
# Use from the root CMakeLists.txt, after add_subdirectory(runtime) and
# add_subdirectory(test/GPU):
#   include(test/GPU/Bundle.cmake)
# The target is created at the end of the root directory (cmake_language
# DEFER), so TILEC_GPU_KERNEL_PTX and the target tilec-gpu-kernels may be
# defined anywhere in the root CMakeLists.txt, before or after the include.
# TILEC_GPU_KERNEL_PTX is read from the root's variable or, if the PTX are
# defined in a subdirectory, from the global property of the same name.

function(_tilec_define_gpu_bundle)
  set(bundle ${CMAKE_BINARY_DIR}/gpu-bundle)
  get_property(src GLOBAL PROPERTY TILEC_GPU_BUNDLE_SOURCE_DIR)
  get_property(reference GLOBAL PROPERTY TILEC_GPU_REFERENCE_PTX)
  set(ptx "${TILEC_GPU_KERNEL_PTX}")
  if(NOT ptx)
    get_property(ptx GLOBAL PROPERTY TILEC_GPU_KERNEL_PTX)
  endif()
  if(NOT ptx)
    message(STATUS "gpu-bundle: TILEC_GPU_KERNEL_PTX is empty; the bundle's "
                   "kernels/ will be empty (tests will SKIP and fail)")
  endif()
  get_filename_component(repo ${src}/../.. ABSOLUTE)
  file(GLOB bench_py CONFIGURE_DEPENDS ${repo}/bench/*.py ${repo}/bench/*.sh)
  file(GLOB examples_py CONFIGURE_DEPENDS ${repo}/examples/*.py
       ${repo}/test/GPU/kernels/py/*.py)
  # Triton's tutorial 03 (the source of matmul_tutorial03_leaky_relu.ptx),
  # carried with the dot kernels once the file is in the tree.
  set(tutorial03 ${repo}/test/Frontend/Inputs/03-matrix-multiplication.py)
  if(TILEC_GPU_DOT_TESTS AND EXISTS ${tutorial03})
    list(APPEND examples_py ${tutorial03})
  endif()

  set(manifest ${CMAKE_BINARY_DIR}/gpu-bundle-manifest.cmake)
  file(GENERATE OUTPUT ${manifest} CONTENT
"set(BUNDLE \"${bundle}\")
set(TESTS_EXE \"$<TARGET_FILE:tilec-gpu-tests>\")
set(LAUNCH_BENCH_EXE \"$<TARGET_FILE:tilec-launch-bench>\")
set(GRAPH_BENCH_EXE \"$<TARGET_FILE:tilec-graph-bench>\")
set(NVRTC_EXE \"$<TARGET_FILE:tilec-nvrtc>\")
set(RUNTIME_LIB \"$<TARGET_FILE:tilec_runtime_shared>\")
set(KERNEL_PTX \"${ptx}\")
set(REFERENCE_PTX \"${reference}\")
set(BENCH_PY \"${bench_py}\")
set(EXAMPLES_PY \"${examples_py}\")
set(RUN_SH \"${src}/run.sh\")
set(STRIP \"${CMAKE_STRIP}\")
")
  add_custom_target(gpu-bundle
    COMMAND ${CMAKE_COMMAND} -DMANIFEST=${manifest}
            -P ${src}/AssembleBundle.cmake
    DEPENDS ${src}/AssembleBundle.cmake ${src}/run.sh
    COMMENT "Assembling ${bundle}"
    VERBATIM)
  add_dependencies(gpu-bundle tilec-gpu-tests tilec-launch-bench
                   tilec-graph-bench tilec-nvrtc tilec_runtime_shared)
  if(TARGET tilec-gpu-kernels)
    add_dependencies(gpu-bundle tilec-gpu-kernels)
  endif()
  if(TARGET tilec-gpu-reference-kernels)
    add_dependencies(gpu-bundle tilec-gpu-reference-kernels)
  endif()
  # The same kernels through the CUDA C++ backend, as kernels-cuda/*.cu in
  # the bundle (tilec-gpu-tests compiles them with NVRTC on the GPU
  # machine; docs/testing.md). Not part of gpu-bundle: it compiles every
  # kernel again.
  add_custom_target(gpu-bundle-cuda
    COMMAND ${PROJECT_SOURCE_DIR}/scripts/cuda-kernels.sh ${CMAKE_BINARY_DIR}
            ${bundle}/kernels-cuda
    COMMENT "CUDA C++ of the bundle's kernels -> ${bundle}/kernels-cuda"
    USES_TERMINAL
    VERBATIM)
  add_dependencies(gpu-bundle-cuda gpu-bundle)
endfunction()

cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR}
               CALL _tilec_define_gpu_bundle)
