# Shared build settings and the one test-registration helper.

# preemptcheck_warnings(TARGET): the project's warning set, errors when PREEMPTCHECK_WERROR.
function(preemptcheck_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Wnon-virtual-dtor)
  if(PREEMPTCHECK_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  target_compile_features(${target} PUBLIC cxx_std_20)
endfunction()

# preemptcheck_library(NAME SOURCES... DEPS ...): one library per folder, with an alias
# preemptcheck::NAME.
function(preemptcheck_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(preemptcheck_${name} ${ARG_SOURCES})
  add_library(preemptcheck::${name} ALIAS preemptcheck_${name})
  target_include_directories(preemptcheck_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(preemptcheck_${name} PUBLIC ${ARG_DEPS})
  preemptcheck_warnings(preemptcheck_${name})
endfunction()

# preemptcheck_test_code(TARGET): how a test executable's own code is compiled. A test's own
# code is assertions and toy models around the libraries it tests, which keep the build's
# optimisation and debug info. In an optimised build it is compiled with -Og, which halves its
# compile time (measured per translation unit, README "Speed") and keeps it debuggable; with
# debug info it gets -g1, line tables only: a failing test's backtrace and breakpoints by line
# work, its local variables are not described (the Debug build type describes them). -g1
# takes a quarter off a test's compile time (level_explorer_test.cc 16.5 s to 10.9 s CPU).
function(preemptcheck_test_code target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:RelWithDebInfo,Release>:-Og>
                                           $<$<CONFIG:RelWithDebInfo>:-g1>)
endfunction()

# preemptcheck_test(NAME SOURCES... DEPS ... [LABELS ...]): a GoogleTest executable whose
# tests are registered with CTest one by one.
function(preemptcheck_test name)
  if(NOT PREEMPTCHECK_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest_main)
  preemptcheck_warnings(${name})
  preemptcheck_test_code(${name})
  include(GoogleTest)
  if(NOT ARG_LABELS)
    set(ARG_LABELS unit)
  endif()
  gtest_discover_tests(${name}
    TEST_PREFIX "${name}."
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES LABELS "${ARG_LABELS}" ENVIRONMENT "PREEMPTCHECK_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
    DISCOVERY_TIMEOUT 60)
endfunction()
