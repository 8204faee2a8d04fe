# The tuner (tools/tune/, docs/tuning.md): sampling, the loss and the fit against small
# table sets (3 creatures: about a second in Release), and
# dejarik-tune as a user runs it, down to the engine loading what it wrote.
add_executable(tune-tests ${CMAKE_CURRENT_LIST_DIR}/test_tune.cpp ${CMAKE_CURRENT_LIST_DIR}/test_spsa.cpp)
target_link_libraries(tune-tests PRIVATE tuner doctest-main)
add_test(NAME tune COMMAND tune-tests)

# The kelly sets of three creatures, generated once by dejarik-tb for both tests below
# (12 s of CPU each time under ASan): a fixture that ctest runs first, afresh each time.
set(DEJARIK_KELLY3_TABLES ${CMAKE_CURRENT_BINARY_DIR}/kelly3-tables)
add_test(NAME tune-tables
         COMMAND sh -c "rm -rf \"$1\" && exec \"$0\" generate --ruleset kelly --max-pieces 3 --path \"$1\""
                 $<TARGET_FILE:dejarik-tb> ${DEJARIK_KELLY3_TABLES})
set_tests_properties(tune-tables PROPERTIES FIXTURES_SETUP kelly3-tables)
set_tests_properties(tune PROPERTIES FIXTURES_REQUIRED kelly3-tables
                     ENVIRONMENT DEJARIK_KELLY3_TABLES=${DEJARIK_KELLY3_TABLES})

if(TARGET dejarik)
  add_test(NAME tune-cli
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_tune_cli.sh $<TARGET_FILE:dejarik-tune>
                   ${DEJARIK_KELLY3_TABLES} $<TARGET_FILE:dejarik>)
  set_tests_properties(tune-cli PROPERTIES FIXTURES_REQUIRED kelly3-tables)
endif()
