# The arena's tests (docs/arena.md): statistics, dice and deals, games with in-process
# players, and the referee against real engine processes, the deliberately broken test
# engine among them.
add_executable(dejarik-test-engine arena/test_engine.cpp)
target_link_libraries(dejarik-test-engine PRIVATE core arena-baselines Boost::program_options)

add_executable(arena-tests
  test_main.cpp test_arena_stats.cpp test_arena_luck.cpp test_arena_games.cpp
  test_arena_engines.cpp)
target_link_libraries(arena-tests PRIVATE arena doctest::doctest)
target_compile_definitions(arena-tests PRIVATE
  ARENA_TEST_ENGINE="$<TARGET_FILE:dejarik-test-engine>")
add_dependencies(arena-tests dejarik-test-engine)
# Records also replay through the real engine once it is built.
if(TARGET dejarik)
  target_compile_definitions(arena-tests PRIVATE DEJARIK_ENGINE="$<TARGET_FILE:dejarik>")
  add_dependencies(arena-tests dejarik)
endif()

add_test(NAME arena-unit COMMAND arena-tests --test-suite=arena-unit)
add_test(NAME arena-engines COMMAND arena-tests --test-suite=arena-engines)
