# link_time_optimization.cmake: the gcsim executable optimized across files.
#
# In a Release build with GCC, every object carries GCC's intermediate code
# beside its machine code ("fat" objects). The gcsim executable is linked with
# -flto: GCC then inlines and lays out the engine, the policies and the
# readers as one program (on a 100k-job run at load 0.98 that is a few
# percent of the run). Every other program (the tests, the benchmarks, the
# Python module) links the machine code as compiled, so the link-time work is
# paid once. Off with -DGCSIM_LTO=OFF; never with sanitizers or another
# compiler.
#
#   gcsim_link_time_optimized(gcsim)
option(GCSIM_LTO "Link the gcsim executable with link-time optimization (Release builds with GCC)" ON)

set(GCSIM_LTO_ACTIVE OFF)
if(GCSIM_LTO AND CMAKE_BUILD_TYPE STREQUAL "Release" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
   AND GCSIM_SANITIZE STREQUAL "")
  set(GCSIM_LTO_ACTIVE ON)
  add_compile_options(-flto=auto -ffat-lto-objects)
endif()

function(gcsim_link_time_optimized target)
  if(GCSIM_LTO_ACTIVE)
    target_link_options(${target} PRIVATE -flto=auto)
  endif()
endfunction()
