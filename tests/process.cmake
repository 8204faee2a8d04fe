# The child-process library (tools/process/) that the protocol tests and the arena drive
# engines with: pipes both ways, deadlines, exits, signals, stderr.
add_executable(child-process-tests test_child_process.cpp)
target_link_libraries(child-process-tests PRIVATE child-process doctest-main)
add_test(NAME child-process COMMAND child-process-tests)
