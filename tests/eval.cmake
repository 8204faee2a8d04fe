# The board symmetries (src/symmetry.h), the evaluator that must respect them, its weights.
add_executable(eval-tests test_symmetry.cpp test_eval.cpp test_tunables.cpp)
target_link_libraries(eval-tests PRIVATE eval core doctest-main)
add_test(NAME eval COMMAND eval-tests)
