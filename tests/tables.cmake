# The endgame tables (tables/): the index and the solver's pieces, the values of generated
# sets against independent references, the files, and dejarik-tb as a user runs it. Sets
# are generated into temporary directories: small ones only (2v1, one 2v2 and one 3v1).
add_executable(tables-tests
  ${CMAKE_CURRENT_LIST_DIR}/test_tables_index.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_tables_solve.cpp ${CMAKE_CURRENT_LIST_DIR}/test_tables_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_tables_policy.cpp)
target_link_libraries(tables-tests PRIVATE tables core doctest-main)
# The full references (value iteration to the fixed point, the game solved to the end
# under a quiet draw, the game against a fixed player over raw positions) take most of the
# suite's time under ASan and check values, not memory:
# optimised builds only (label deep), as the rest of the suite reads and writes the same
# tables.
dejarik_add_test_with_deep(tables tables-tests
                           "tables agree with full-depth*,plain value iteration*,values against a fixed player*,a set of five*")
# Those references run in the test's own code: at -O1 (g++ Release: 8 s against 30 s at -O0).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/test_tables_solve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_tables_policy.cpp TARGET_DIRECTORY tables-tests PROPERTIES COMPILE_OPTIONS "${DEJARIK_HOT_TEST_OPTIONS}")

# dejarik-tb as a user runs it: exit codes, error lines, generate / probe / verify / info.
add_test(NAME tables-cli
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_tables_cli.sh $<TARGET_FILE:dejarik-tb>)
