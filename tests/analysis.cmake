# Game analysis and rollouts (tools/analysis/): games played in process through the
# arena's referee and analysed, the error/luck identity on exact endgames, rollouts of a
# solved endgame; and `dejarik analyse-game` / `dejarik rollout` as a user runs them.
add_executable(analysis-tests test_analysis.cpp)
target_link_libraries(analysis-tests PRIVATE analysis arena tables doctest-main)
add_test(NAME analysis COMMAND analysis-tests)

add_test(NAME analysis-cli
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_analysis_cli.sh $<TARGET_FILE:dejarik>
                 $<TARGET_FILE:dejarik-arena>)
