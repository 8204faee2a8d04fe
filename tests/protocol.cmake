# The DEI protocol's tests: the pure parser and text output in-process, and the real
# `dejarik` binary driven through pipes (sessions, errors, random positions, the command
# line, a line fuzzer). libFuzzer targets for the line and DFEN parsers with -DDEJARIK_FUZZ=ON
# and clang (see tests/fuzz/run.sh).
add_executable(protocol-unit-tests
  test_protocol_parser.cpp test_protocol_options.cpp
  test_protocol_text.cpp)
target_link_libraries(protocol-unit-tests PRIVATE protocol doctest-main)
add_test(NAME protocol-unit COMMAND protocol-unit-tests)

add_executable(protocol-tests
  test_protocol_session.cpp test_protocol_positions.cpp
  test_protocol_cli.cpp test_protocol_fuzz.cpp test_protocol_tables.cpp
  test_protocol_rule_sets.cpp
  test_protocol_courtier.cpp)
target_link_libraries(protocol-tests PRIVATE child-process protocol core doctest-main)
target_compile_definitions(protocol-tests PRIVATE DEJARIK_BINARY="$<TARGET_FILE:dejarik>"
  DEJARIK_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/../data")
add_dependencies(protocol-tests dejarik)
# One ctest entry per suite so they can run side by side.
foreach(suite session errors positions cli fuzz tables rulesets courtier)
  add_test(NAME protocol-${suite} COMMAND protocol-tests --test-suite=${suite})
endforeach()
add_test(NAME protocol-cli-deep COMMAND protocol-tests --test-suite=cli-deep)
set_tests_properties(protocol-cli-deep PROPERTIES LABELS deep)

# Sessions at Threads 2 and 4 (label `threads`, what the ThreadSanitizer build runs); their
# own executable, so that build compiles no more than it runs.
add_executable(protocol-threads-tests test_protocol_threads.cpp)
target_link_libraries(protocol-threads-tests PRIVATE child-process core doctest-main)
target_compile_definitions(protocol-threads-tests PRIVATE DEJARIK_BINARY="$<TARGET_FILE:dejarik>")
add_dependencies(protocol-threads-tests dejarik)
add_test(NAME protocol-threads COMMAND protocol-threads-tests)
set_tests_properties(protocol-threads PROPERTIES LABELS threads)

# The libFuzzer targets' entry points over their seed corpus, in every build (tests/fuzz/
# replay.cpp): they compile and their checks hold without clang's libFuzzer.
foreach(target line dfen)
  add_executable(fuzz-replay-${target} fuzz/fuzz_${target}.cpp fuzz/replay.cpp)
  target_link_libraries(fuzz-replay-${target} PRIVATE protocol core)
  add_test(NAME fuzz-corpus-${target}
    COMMAND fuzz-replay-${target} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${target})
endforeach()

option(DEJARIK_FUZZ "Build the libFuzzer targets (needs clang)" OFF)
if(DEJARIK_FUZZ)
  foreach(target line dfen)
    add_executable(fuzz-${target} fuzz/fuzz_${target}.cpp)
    target_link_libraries(fuzz-${target} PRIVATE protocol core)
    target_compile_options(fuzz-${target} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_options(fuzz-${target} PRIVATE -fsanitize=fuzzer,address,undefined)
  endforeach()
endif()
