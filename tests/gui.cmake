# The browser board (tools/gui/, docs/gui.md): the message codec and the referee as unit
# tests; the page in a real headless chromium (skipped without one); eight scripted
# clients at once, and the server's robustness, against real engine processes.
find_package(nlohmann_json 3 REQUIRED)
add_executable(gui-tests test_gui_codec.cpp test_gui_referee.cpp)
target_link_libraries(gui-tests PRIVATE gui-game doctest-main)
add_test(NAME gui-unit COMMAND gui-tests)

add_library(gui-test-client STATIC gui/ws_client.cpp)
target_include_directories(gui-test-client PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/gui)
target_link_libraries(gui-test-client PUBLIC Boost::headers Threads::Threads child-process
                      nlohmann_json::nlohmann_json)

add_executable(gui-browser-test gui/browser_test.cpp)
target_link_libraries(gui-browser-test PRIVATE gui-test-client arena)
target_include_directories(gui-browser-test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})  # temp_dir.h
add_test(NAME gui-browser
  COMMAND gui-browser-test $<TARGET_FILE:dejarik-gui> $<TARGET_FILE:dejarik>
          ${PROJECT_BINARY_DIR}/gui-screenshot.png)
set_tests_properties(gui-browser PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)

add_executable(gui-clients-test gui/clients_test.cpp)
target_link_libraries(gui-clients-test PRIVATE gui-test-client arena)  # the records' reader
add_test(NAME gui-load
  COMMAND gui-clients-test load $<TARGET_FILE:dejarik-gui> $<TARGET_FILE:dejarik>)
add_test(NAME gui-robust
  COMMAND gui-clients-test robust $<TARGET_FILE:dejarik-gui> $<TARGET_FILE:dejarik>
          $<TARGET_FILE:dejarik-test-engine>)
set_tests_properties(gui-load gui-robust PROPERTIES TIMEOUT 120)
# The scripted clients and the browser driver are the tests' harness, not code under test:
# an ASan/UBSan build compiles them unsanitized (the sanitizers check the server and the
# engines they drive). Their JSON and Beast code then builds in 29 s of CPU instead of 44
# (clang, the three batches) and gui-load takes 15 s of CPU instead of 18. ThreadSanitizer
# keeps them instrumented: it would report races through code it cannot see.
set(DEJARIK_GUI_HARNESS gui-test-client gui-browser-test gui-clients-test)
if(DEJARIK_SANITIZE)
  foreach(t ${DEJARIK_GUI_HARNESS})
    target_compile_options(${t} PRIVATE -fno-sanitize=all)
  endforeach()
endif()
# As for dejarik-gui (tools/gui/CMakeLists.txt): Asio's fences under ThreadSanitizer.
if(DEJARIK_SANITIZE_THREAD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  foreach(t ${DEJARIK_GUI_HARNESS})
    target_compile_options(${t} PRIVATE -Wno-error=tsan)
  endforeach()
endif()
# Usage errors: the server binds an address, not a name; the engine must be a program.
add_test(NAME gui-bad-host COMMAND dejarik-gui --host nope.invalid --port 0)
set_tests_properties(gui-bad-host PROPERTIES
  PASS_REGULAR_EXPRESSION "error: --host: 'nope.invalid' is not an IPv4 or IPv6 address")
add_test(NAME gui-engine-directory COMMAND dejarik-gui --engine ${CMAKE_CURRENT_SOURCE_DIR} --port 0)
set_tests_properties(gui-engine-directory PROPERTIES
  PASS_REGULAR_EXPRESSION "error: --engine: '.*' is not executable")
