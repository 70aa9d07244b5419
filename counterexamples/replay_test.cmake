# One CTest check of a counterexample file: cmake -DBINARY=… -DFILE=… -DEXPECT=… -P this.
#   EXPECT=reproduces  `replay FILE` must exit 1: the recorded violation reproduces.
#   EXPECT=closed      `replay FILE --profile reference` must not exit 1: it exits 0 (every
#                      step ran, every property held) or 2 because a step is not enabled.
if(EXPECT STREQUAL "reproduces")
  set(args replay ${FILE})
elseif(EXPECT STREQUAL "closed")
  set(args replay ${FILE} --profile reference)
else()
  message(FATAL_ERROR "EXPECT must be 'reproduces' or 'closed', got '${EXPECT}'")
endif()
execute_process(COMMAND ${BINARY} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
string(REPLACE ";" " " shown "${args}")
if(EXPECT STREQUAL "reproduces")
  set(ok FALSE)
  if(rc STREQUAL "1")
    set(ok TRUE)
  endif()
  set(wanted "exit 1 (the recorded violation reproduces)")
else()
  set(ok FALSE)
  if(rc STREQUAL "0")
    set(ok TRUE)
  elseif(rc STREQUAL "2" AND err MATCHES "is not enabled")
    set(ok TRUE)
  endif()
  set(wanted "exit 0, or exit 2 with a step that is not enabled")
endif()
if(NOT ok)
  message(FATAL_ERROR "preemptcheck ${shown} exited ${rc}; expected ${wanted}\n"
                      "--- stdout\n${out}--- stderr\n${err}")
endif()
message(STATUS "preemptcheck ${shown}: exit ${rc}\n${err}")
