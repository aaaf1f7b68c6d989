# SPDX-License-Identifier: GPL-3.0-or-later
# Included before any target when KVSCOPE_BUILD_FUZZERS is on: the core and the CLI library carry
# libFuzzer's coverage hooks and both sanitizers, so a fault in them stops the fuzzer at the input.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "KVSCOPE_BUILD_FUZZERS needs clang (the fuzz preset uses clang++-14)")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                    -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
