# sanitizers.cmake: the compile and link flags of GCSIM_SANITIZE, for every target.
#
#   address  AddressSanitizer and UndefinedBehaviorSanitizer, with its check of
#            floating-point values converted out of range (in clang's
#            `undefined`, added for gcc); any undefined behaviour aborts
#            (-fno-sanitize-recover)
#   thread   ThreadSanitizer
#   fuzz     address, plus libFuzzer's coverage instrumentation
#            (-fsanitize=fuzzer-no-link); clang only. The fuzz targets add
#            -fsanitize=fuzzer at their own link.
#
# SimGrid runs actors on its own context stacks, which AddressSanitizer does
# not follow: programs that run a simulation need
# ASAN_OPTIONS=detect_stack_use_after_return=0 (docs/robustness.md).
if(GCSIM_SANITIZE STREQUAL "")
  return()
endif()

if(GCSIM_SANITIZE STREQUAL "address" OR GCSIM_SANITIZE STREQUAL "fuzz")
  set(gcsim_sanitizer_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # gcc leaves out of `undefined` a conversion of a floating-point value its target type cannot hold.
    list(APPEND gcsim_sanitizer_flags -fsanitize=float-cast-overflow -fno-sanitize-recover=float-cast-overflow)
  endif()
  if(GCSIM_SANITIZE STREQUAL "fuzz")
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      message(FATAL_ERROR "GCSIM_SANITIZE=fuzz needs clang (e.g. -DCMAKE_CXX_COMPILER=clang++)")
    endif()
    list(APPEND gcsim_sanitizer_flags -fsanitize=fuzzer-no-link)
  endif()
elseif(GCSIM_SANITIZE STREQUAL "thread")
  set(gcsim_sanitizer_flags -fsanitize=thread)
else()
  message(FATAL_ERROR "GCSIM_SANITIZE must be empty, address, thread or fuzz; got '${GCSIM_SANITIZE}'")
endif()

add_compile_options(${gcsim_sanitizer_flags} -fno-omit-frame-pointer)
if(GCSIM_SANITIZE STREQUAL "thread" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # SimGrid's headers release an activity's reference behind a fence, which
  # ThreadSanitizer does not model; gcc warns at every inlined release.
  add_compile_options(-Wno-tsan)
endif()
add_link_options(${gcsim_sanitizer_flags})
