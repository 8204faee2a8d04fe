add_executable(search-tests test_search.cpp)
target_link_libraries(search-tests PRIVATE search doctest::doctest)
add_test(NAME search COMMAND search-tests)
