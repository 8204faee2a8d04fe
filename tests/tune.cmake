# The tuner (tools/tune/, docs/tuning.md): sampling, the loss and the fit against small
# table sets generated into a temporary directory (3 creatures: about a second), and
# dejarik-tune as a user runs it, down to the engine loading what it wrote.
add_executable(tune-tests ${CMAKE_CURRENT_LIST_DIR}/test_tune.cpp ${CMAKE_CURRENT_LIST_DIR}/test_spsa.cpp)
target_link_libraries(tune-tests PRIVATE tuner doctest-main)
add_test(NAME tune COMMAND tune-tests)

if(TARGET dejarik)
  add_test(NAME tune-cli
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_tune_cli.sh $<TARGET_FILE:dejarik-tune>
                   $<TARGET_FILE:dejarik-tb> $<TARGET_FILE:dejarik>)
endif()
