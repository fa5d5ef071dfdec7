# Build-time half of Bundle.cmake: copies the files listed in the generated
# manifest into a fresh gpu-bundle/ folder and strips the binaries.
# Usage: cmake -DMANIFEST=<build>/gpu-bundle-manifest.cmake -P AssembleBundle.cmake
include(${MANIFEST})

file(REMOVE_RECURSE ${BUNDLE})
file(MAKE_DIRECTORY ${BUNDLE}/bin ${BUNDLE}/lib ${BUNDLE}/kernels ${BUNDLE}/bench)

function(copy_stripped from to)
  file(COPY_FILE ${from} ${to})
  if(STRIP)
    execute_process(COMMAND ${STRIP} --strip-unneeded ${to}
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "gpu-bundle: ${STRIP} failed on ${to}")
    endif()
  endif()
endfunction()

copy_stripped(${TESTS_EXE} ${BUNDLE}/bin/tilec-gpu-tests)
copy_stripped(${LAUNCH_BENCH_EXE} ${BUNDLE}/bin/tilec-launch-bench)
copy_stripped(${GRAPH_BENCH_EXE} ${BUNDLE}/bin/tilec-graph-bench)
copy_stripped(${NVRTC_EXE} ${BUNDLE}/bin/tilec-nvrtc)
copy_stripped(${RUNTIME_LIB} ${BUNDLE}/lib/libtilec_runtime.so)

foreach(f IN LISTS KERNEL_PTX)
  if(NOT EXISTS ${f})
    message(FATAL_ERROR "gpu-bundle: kernel ${f} does not exist")
  endif()
  file(COPY ${f} DESTINATION ${BUNDLE}/kernels)
endforeach()
if(REFERENCE_PTX)
  file(MAKE_DIRECTORY ${BUNDLE}/reference-kernels)
  foreach(f IN LISTS REFERENCE_PTX)
    file(COPY ${f} DESTINATION ${BUNDLE}/reference-kernels)
  endforeach()
endif()
foreach(f IN LISTS BENCH_PY)
  file(COPY ${f} DESTINATION ${BUNDLE}/bench
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                        GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()
# The Triton-language sources the kernels came from: the benchmark runs them
# through Triton too (the same tile program on both compilers).
if(EXAMPLES_PY)
  file(MAKE_DIRECTORY ${BUNDLE}/examples)
  foreach(f IN LISTS EXAMPLES_PY)
    file(COPY ${f} DESTINATION ${BUNDLE}/examples)
  endforeach()
endif()
file(COPY ${RUN_SH} DESTINATION ${BUNDLE}
     FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                      GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

list(LENGTH KERNEL_PTX nptx)
list(LENGTH REFERENCE_PTX nref)
message(STATUS "gpu-bundle: ${BUNDLE} (${nptx} kernels, ${nref} reference "
               "kernels)")
