# One CTest check of a counterexample file: cmake -DBINARY=… -DFILE=… -DEXPECT=… -P this.
#   EXPECT=reproduces  `replay FILE` must exit 1: the recorded violation reproduces.
#   EXPECT=closed      `check --scenario-of FILE --profile reference --property P` must exit 0:
#                      every interleaving of the file's inline scenario, under `reference`,
#                      holds the file's property P. (Replaying the one recorded schedule under
#                      `reference` only illustrates where it breaks; a step that is not enabled
#                      there proves nothing.) A file recorded with cycle=split is checked
#                      with --cycle=split too: `reference` keeps the file's cycle model.
#   EXPECT=closed-by   `check --scenario-of FILE SWITCHES --property P` must exit 0: the file's
#                      own mechanisms plus the fix SWITCHES hold P over every interleaving.
if(EXPECT STREQUAL "reproduces")
  set(args replay ${FILE})
elseif(EXPECT STREQUAL "closed" OR EXPECT STREQUAL "closed-by")
  file(STRINGS ${FILE} property_line REGEX "^property: ")
  list(LENGTH property_line count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "${FILE}: expected exactly one 'property:' line, found ${count}")
  endif()
  string(REGEX REPLACE "^property: *" "" property "${property_line}")
  if(EXPECT STREQUAL "closed-by")
    separate_arguments(switches UNIX_COMMAND "${SWITCHES}")
    set(args check --scenario-of ${FILE} ${switches} --property ${property})
  else()
    set(args check --scenario-of ${FILE} --profile reference --property ${property})
    file(STRINGS ${FILE} mechanisms_line REGEX "^mechanisms: .*cycle: split")
    if(mechanisms_line)
      list(APPEND args --cycle=split)
    endif()
  endif()
else()
  message(FATAL_ERROR "EXPECT must be 'reproduces', 'closed' or 'closed-by', got '${EXPECT}'")
endif()
execute_process(COMMAND ${BINARY} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
string(REPLACE ";" " " shown "${args}")
if(EXPECT STREQUAL "reproduces")
  set(wanted "1")
  set(meaning "exit 1 (the recorded violation reproduces)")
elseif(EXPECT STREQUAL "closed-by")
  set(wanted "0")
  set(meaning "exit 0 (the property holds over every interleaving with the fix)")
else()
  set(wanted "0")
  set(meaning "exit 0 (the property holds over every interleaving under reference)")
endif()
if(NOT rc STREQUAL wanted)
  message(FATAL_ERROR "preemptcheck ${shown} exited ${rc}; expected ${meaning}\n"
                      "--- stdout\n${out}--- stderr\n${err}")
endif()
message(STATUS "preemptcheck ${shown}: exit ${rc}\n${err}")
