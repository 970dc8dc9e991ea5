# link_time_optimization.cmake: the gcsim executable optimized across files.
#
# In a Release build with GCC, the executable's own files and every static
# library of the project it links are compiled into objects that carry GCC's
# intermediate code beside their machine code ("fat" objects), and the
# executable is linked with -flto: GCC then inlines and lays out the engine,
# the policies and the readers as one program (on a 100k-job run at load 0.98
# that is a few percent of the run). The tests, the benchmarks and the Python
# module link the machine code of the same objects as compiled, so the
# link-time work is paid once and their own files compile as before. Off with
# -DGCSIM_LTO=OFF; never with sanitizers or another compiler.
#
#   gcsim_link_time_optimized(gcsim)  # once every library it links is defined
option(GCSIM_LTO "Link the gcsim executable with link-time optimization (Release builds with GCC)" ON)

set(GCSIM_LTO_ACTIVE OFF)
if(GCSIM_LTO AND CMAKE_BUILD_TYPE STREQUAL "Release" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
   AND GCSIM_SANITIZE STREQUAL "")
  set(GCSIM_LTO_ACTIVE ON)
endif()

# The project's static libraries `target` links, directly or through others.
function(_gcsim_linked_libraries target out)
  set(found ${${out}})
  get_target_property(links ${target} LINK_LIBRARIES)
  get_target_property(interface ${target} INTERFACE_LINK_LIBRARIES)
  foreach(library IN LISTS links interface)
    if(TARGET ${library} AND NOT library IN_LIST found)
      get_target_property(type ${library} TYPE)
      get_target_property(imported ${library} IMPORTED)
      if(type STREQUAL "STATIC_LIBRARY" AND NOT imported)
        list(APPEND found ${library})
        _gcsim_linked_libraries(${library} found)
      endif()
    endif()
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

function(gcsim_link_time_optimized target)
  if(NOT GCSIM_LTO_ACTIVE)
    return()
  endif()
  set(libraries "")
  _gcsim_linked_libraries(${target} libraries)
  foreach(compiled IN LISTS libraries target)
    target_compile_options(${compiled} PRIVATE -flto=auto -ffat-lto-objects)
  endforeach()
  target_link_options(${target} PRIVATE -flto=auto)
endfunction()
