add_executable(core-tests
  test_main.cpp test_board.cpp test_dice.cpp test_position.cpp test_random_games.cpp)
target_link_libraries(core-tests PRIVATE core doctest::doctest)
add_test(NAME core COMMAND core-tests)

# PERFT.md, every number: the shallow ones always, the deep ones (over ~50M leaves) only in
# optimised builds, under their own label.
add_executable(perft-suite test_perft_suite.cpp)
target_link_libraries(perft-suite PRIVATE core doctest::doctest)
add_test(NAME perft-suite COMMAND perft-suite --test-case-exclude=*deep*)
add_test(NAME perft-suite-deep COMMAND perft-suite --test-case=*deep*)
set_tests_properties(perft-suite-deep PROPERTIES LABELS deep)
