add_executable(search-tests test_search.cpp test_timeman.cpp test_search_tables.cpp
  test_baselines.cpp test_search_endings.cpp)
target_link_libraries(search-tests PRIVATE search doctest-main)
# The searcher with its transposition table against plain expectiminimax at depth 4: 17 of
# the suite's 40 s under ASan, a check of values; the same comparison at depth 2 (and the
# pruned search without the table at depth 1-3) stays in every build. A set of five is made
# in seconds in Release, a minute under ASan: deep too.
dejarik_add_test_with_deep(search search-tests "*plain expectiminimax (with the table*,a set of five*")

# Lazy SMP at Threads 2 and 4: the label `threads` marks what the ThreadSanitizer build of
# tools/run-tests runs.
add_executable(search-threads-tests test_search_threads.cpp)
target_link_libraries(search-threads-tests PRIVATE search doctest-main)
add_test(NAME search-threads COMMAND search-threads-tests)
set_tests_properties(search-threads PROPERTIES LABELS threads)

# The bench signature (tests/bench-signature), in optimised builds only: a sanitizer build
# would take minutes over the same count.
add_test(NAME bench-signature
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_bench_signature.sh $<TARGET_FILE:dejarik>
          ${CMAKE_CURRENT_SOURCE_DIR}/bench-signature)
set_tests_properties(bench-signature PROPERTIES LABELS deep)

# The search on Courtier (RULES §14): chance-free, pruned = plain, legal capture tokens.
add_executable(search-courtier-tests test_search_courtier.cpp)
target_link_libraries(search-courtier-tests PRIVATE search doctest-main)
add_test(NAME search-courtier COMMAND search-courtier-tests)
