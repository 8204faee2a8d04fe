# The board symmetries (src/symmetry.h) and the evaluator that must respect them.
add_executable(eval-tests test_symmetry.cpp test_eval.cpp)
target_link_libraries(eval-tests PRIVATE eval core doctest::doctest)
add_test(NAME eval COMMAND eval-tests)
