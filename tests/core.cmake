# The rules core's tests: unit tests, random games, the PERFT.md suite and the perft CLI.
# Sources are named from this file's directory so the file can be included from anywhere.
set(DEJARIK_CORE_TESTS_DIR ${CMAKE_CURRENT_LIST_DIR})

add_executable(core-tests
  ${DEJARIK_CORE_TESTS_DIR}/test_board.cpp
  ${DEJARIK_CORE_TESTS_DIR}/test_dice.cpp ${DEJARIK_CORE_TESTS_DIR}/test_position.cpp
  ${DEJARIK_CORE_TESTS_DIR}/test_random_games.cpp ${DEJARIK_CORE_TESTS_DIR}/test_creature_set.cpp
  ${DEJARIK_CORE_TESTS_DIR}/test_setup.cpp ${DEJARIK_CORE_TESTS_DIR}/test_rays.cpp
  ${DEJARIK_CORE_TESTS_DIR}/test_race.cpp)
target_link_libraries(core-tests PRIVATE core doctest-main)
# The example creature files of data/creatures/ (RULES §16).
target_compile_definitions(core-tests PRIVATE
  DEJARIK_DATA_DIR="${DEJARIK_CORE_TESTS_DIR}/../data")
# The random games, most of the suite's time, in two entries of their own that ctest runs
# beside each other and beside the rest (alone, clang Release: kelly's variants 8.0 s of
# CPU, the others 11.5 s, the rest of the suite 3.9 s).
add_test(NAME core COMMAND core-tests "--test-case-exclude=random games*")
add_test(NAME core-random-kelly COMMAND core-tests "--test-case=random games*" "--subcase=kelly*")
add_test(NAME core-random COMMAND core-tests "--test-case=random games*"
                                             "--subcase-exclude=kelly*")
# The random games spend their time in the rules' inline code, compiled into the test: at
# -O1 like the code under test (clang's ASan: 9 s against 38 s at -O0; g++ Release: 17 s
# against 39 s). A source with options of its own is left out of the unity batches.
set_source_files_properties(${DEJARIK_CORE_TESTS_DIR}/test_random_games.cpp
  TARGET_DIRECTORY core-tests PROPERTIES COMPILE_OPTIONS "${DEJARIK_HOT_TEST_OPTIONS}")

# PERFT.md, every number: the shallow ones always, the deep ones (over ~50M leaves) only in
# optimised builds, under their own label.
add_executable(perft-suite ${DEJARIK_CORE_TESTS_DIR}/test_perft_suite.cpp)
target_link_libraries(perft-suite PRIVATE core doctest-main)
dejarik_add_test_with_deep(perft-suite perft-suite "*deep*")

# dejarik-perft as a user runs it: exit codes, error lines and the PROTOCOL.md output format.
add_test(NAME perft-cli
         COMMAND bash ${DEJARIK_CORE_TESTS_DIR}/test_perft_cli.sh $<TARGET_FILE:dejarik-perft>)

# Courtier (RULES §14): its perft numbers, rules, DFEN and random games.
add_executable(courtier-tests 
                              ${DEJARIK_CORE_TESTS_DIR}/test_courtier.cpp)
target_link_libraries(courtier-tests PRIVATE core doctest-main)
add_test(NAME courtier COMMAND courtier-tests)
