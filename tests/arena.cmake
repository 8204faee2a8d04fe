# The arena's tests (docs/arena.md): statistics, dice and deals, games with in-process
# players, and the referee against real engine processes, the deliberately broken test
# engine among them.
add_executable(dejarik-test-engine arena/test_engine.cpp)
target_link_libraries(dejarik-test-engine PRIVATE core baselines Boost::program_options)

add_executable(arena-tests
  test_arena_stats.cpp test_arena_luck.cpp test_arena_games.cpp
  test_arena_engines.cpp test_arena_courtier.cpp test_arena_ends.cpp test_arena_endings.cpp
  test_arena_attacks.cpp test_arena_compare.cpp
  test_arena_files.cpp)
target_link_libraries(arena-tests PRIVATE arena doctest-main)
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

# The command line, end to end: a match, a demo, records replayed through an engine, shards
# merged, and a usage error.
set(ARENA_CLI $<TARGET_FILE:dejarik-arena>)
set(ARENA_TEST_ENGINE_PATH $<TARGET_FILE:dejarik-test-engine>)
set(ARENA_CLI_DIR ${CMAKE_CURRENT_BINARY_DIR}/arena-cli)
add_test(NAME arena-cli-match
  COMMAND ${ARENA_CLI} --engine builtin=greedy --engine builtin=random --pairs 3 --quiet)
set_tests_properties(arena-cli-match PROPERTIES
  PASS_REGULAR_EXPRESSION "greedy vs random +3 +6 ")
add_test(NAME arena-cli-demo
  COMMAND ${ARENA_CLI} demo --engine ${ARENA_TEST_ENGINE_PATH} --seed 3 --depth 1)
set_tests_properties(arena-cli-demo PROPERTIES
  PASS_REGULAR_EXPRESSION "dice .*Result (1-0|0-1|1/2-1/2) .*\\[Event \"dejarik-arena\"\\]")
add_test(NAME arena-cli-replay
  COMMAND sh -c "mkdir -p '${ARENA_CLI_DIR}' && rm -f '${ARENA_CLI_DIR}/replay.dgn' && \
'${ARENA_CLI}' --engine cmd=${ARENA_TEST_ENGINE_PATH} depth=1 name=a \
--engine cmd=${ARENA_TEST_ENGINE_PATH} arg=--player arg=greedy depth=1 name=b \
--ruleset holochess --pairs 2 --quiet --records '${ARENA_CLI_DIR}/replay.dgn' && \
'${ARENA_CLI}' replay '${ARENA_CLI_DIR}/replay.dgn' --engine ${ARENA_TEST_ENGINE_PATH}")
set_tests_properties(arena-cli-replay PROPERTIES
  PASS_REGULAR_EXPRESSION "4 records replayed \\(also through the engine\\), 0 failed")
add_test(NAME arena-cli-shards
  COMMAND sh -c "mkdir -p '${ARENA_CLI_DIR}' && cd '${ARENA_CLI_DIR}' && rm -f s1.results s2.results && \
for k in 1 2; do '${ARENA_CLI}' --engine builtin=greedy --engine builtin=random --pairs 5 \
--shard $k/2 --results s$k.results --quiet || exit 1; done && \
'${ARENA_CLI}' merge s1.results s2.results")
set_tests_properties(arena-cli-shards PROPERTIES
  PASS_REGULAR_EXPRESSION "10 games from 2 files.*greedy vs random +5 +10 ")
# strength-table.sh's calibration, from the records of a small match of the test engine.
add_test(NAME arena-cli-calibration-table
  COMMAND sh -c "mkdir -p '${ARENA_CLI_DIR}/calibration' && cd '${ARENA_CLI_DIR}/calibration' && \
rm -f kelly-*.dgn && '${ARENA_CLI}' --engine cmd=${ARENA_TEST_ENGINE_PATH} depth=1 name=a \
--engine cmd=${ARENA_TEST_ENGINE_PATH} arg=--player arg=greedy depth=1 name=b --pairs 2 --quiet \
--records kelly-x.dgn >/dev/null && ARENA='${ARENA_CLI}' PLAYER=a ROWS=x CALIBRATION_ONLY=1 \
bash '${CMAKE_SOURCE_DIR}/tools/arena/strength-table.sh' kelly .")
set_tests_properties(arena-cli-calibration-table PROPERTIES
  PASS_REGULAR_EXPRESSION "Calibration of a in kelly.*\\| \\[[-+][01]\\.[0-9]+, [-+][01]\\.[0-9]+\\) \\| [1-4] \\| [0-9]+ \\| [01]\\.[0-9]+ \\| .*decisions in 4 games")
# strength-table.sh's rows of the engine set to play a baseline (OPTIONS_*), with ARENA_ARGS.
add_test(NAME arena-cli-strength-table-options
  COMMAND sh -c "mkdir -p '${ARENA_CLI_DIR}/options' && cd '${ARENA_CLI_DIR}/options' && \
ENGINE='$<TARGET_FILE:dejarik>' ARENA='${ARENA_CLI}' DEPTH=1 LADDER=1 BASELINES=0 SELFPLAY=0 \
CALIBRATION=0 HEADER=0 OPTIONS_GREEDY='option.Opponent=greedy option.Contempt=10' \
ARENA_ARGS='--stall-timeout 900000' bash '${CMAKE_SOURCE_DIR}/tools/arena/strength-table.sh' kelly . 1 && \
ls kelly-d1+-greedy.dgn")
set_tests_properties(arena-cli-strength-table-options PROPERTIES
  PASS_REGULAR_EXPRESSION "^\\| kelly \\| d1\\+ vs greedy \\| 1 \\| [0-2]-[0-2]-[0-2] \\| [^\n]*\n(kelly-d1\\+-greedy.dgn)\n$")
# ... and with the default rows played too, the two set side by side (`compare`).
add_test(NAME arena-cli-strength-table-compare
  COMMAND sh -c "mkdir -p '${ARENA_CLI_DIR}/options-compare' && cd '${ARENA_CLI_DIR}/options-compare' && \
ENGINE='$<TARGET_FILE:dejarik>' ARENA='${ARENA_CLI}' DEPTH=1 LADDER=1 SELFPLAY=0 CALIBRATION=0 \
HEADER=0 OPTIONS_CAUTIOUS='option.Opponent=cautious' \
bash '${CMAKE_SOURCE_DIR}/tools/arena/strength-table.sh' kelly . 2")
set_tests_properties(arena-cli-strength-table-compare PROPERTIES
  PASS_REGULAR_EXPRESSION "\\| kelly \\| d1\\+ vs cautious \\| 2 \\| [^\n]*\n\n\\| ruleset \\| against \\| pairs \\| played differently \\| d1\\+ - d1 per game \\| luck-adjusted \\|\n[^\n]*\n\\| kelly \\| cautious \\| 2 \\| [0-2] \\| [-+][01]\\.[0-9]+ ± [0-9.]+ \\| — \\|\n")
# `ends` on the records of a small match of the built-in players.
add_test(NAME arena-cli-ends
  COMMAND sh -c "mkdir -p '${ARENA_CLI_DIR}/ends' && cd '${ARENA_CLI_DIR}/ends' && rm -f g.dgn && \
'${ARENA_CLI}' --engine builtin=greedy --engine builtin=random --pairs 3 --quiet --records g.dgn \
>/dev/null && '${ARENA_CLI}' ends g.dgn --player greedy --against random")
set_tests_properties(arena-cli-ends PROPERTIES
  PASS_REGULAR_EXPRESSION "greedy's games: the race bound .*\\(random\\).*\nwon +[0-6] ")
# `attacks` on the records of a small match of the built-in players.
add_test(NAME arena-cli-attacks
  COMMAND sh -c "mkdir -p '${ARENA_CLI_DIR}/attacks' && cd '${ARENA_CLI_DIR}/attacks' && rm -f g.dgn && \
'${ARENA_CLI}' --engine builtin=greedy --engine builtin=random --pairs 3 --quiet --records g.dgn \
>/dev/null && '${ARENA_CLI}' attacks g.dgn --player random")
set_tests_properties(arena-cli-attacks PROPERTIES
  PASS_REGULAR_EXPRESSION "random's games \\(6\\): every attack.*\nplayer    all +[0-9]+ .*\nother     all +[0-9]+ ")
add_test(NAME arena-cli-attacks-usage COMMAND ${ARENA_CLI} attacks some.dgn)
set_tests_properties(arena-cli-attacks-usage PROPERTIES
  PASS_REGULAR_EXPRESSION "error: attacks: --player NAME is required")
# `compare` on two small matches of the same deals and dice, the engine compared under one
# name in both (greedy, then cautious, each called p, against random).
add_test(NAME arena-cli-compare
  COMMAND sh -c "mkdir -p '${ARENA_CLI_DIR}/compare' && cd '${ARENA_CLI_DIR}/compare' && \
rm -f a.dgn b.dgn && \
'${ARENA_CLI}' --engine builtin=greedy name=p --engine builtin=random --pairs 3 --seed 5 --quiet \
--records a.dgn >/dev/null && \
'${ARENA_CLI}' --engine builtin=cautious name=p --engine builtin=random --pairs 3 --seed 5 --quiet \
--records b.dgn >/dev/null && '${ARENA_CLI}' compare a.dgn b.dgn --player p")
set_tests_properties(arena-cli-compare PROPERTIES
  PASS_REGULAR_EXPRESSION "p, pair by pair: 3 pairs of the same deals and dice in both runs, [0-3] ended differently \\([0-3] played differently\\)\n\nrun .*\nA +6 .* a\\.dgn\nB +6 .* b\\.dgn\n\nA - B per game: +[-+][01]\\.[0-9]+ ± [0-9.]+ \\(95%\\)\nluck-adjusted: +needs 30 pairs")
# Two runs of other deals are not compared: an error, not a figure.
add_test(NAME arena-cli-compare-other-deals
  COMMAND sh -c "mkdir -p '${ARENA_CLI_DIR}/compare-other' && cd '${ARENA_CLI_DIR}/compare-other' && \
rm -f s5.dgn s6.dgn && for s in 5 6; do '${ARENA_CLI}' --engine builtin=greedy name=p \
--engine builtin=random --pairs 2 --seed $s --quiet --records s$s.dgn >/dev/null || exit 1; done && \
'${ARENA_CLI}' compare s5.dgn s6.dgn --player p")
set_tests_properties(arena-cli-compare-other-deals PROPERTIES
  PASS_REGULAR_EXPRESSION "error: record 1\\.1 against random: the runs' deals differ")
add_test(NAME arena-cli-compare-usage COMMAND ${ARENA_CLI} compare a.dgn --player p)
set_tests_properties(arena-cli-compare-usage PROPERTIES
  PASS_REGULAR_EXPRESSION "error: compare: give two record files, A and B \\(1 given\\)")
# `--most 0` lists no falls; a negative count is a usage error.
add_test(NAME arena-cli-ends-most
  COMMAND sh -c "cd '${ARENA_CLI_DIR}/ends' && '${ARENA_CLI}' ends g.dgn --player random --most 0 && \
'${ARENA_CLI}' ends g.dgn --player random --most -1 2>&1")
set_tests_properties(arena-cli-ends-most PROPERTIES DEPENDS arena-cli-ends
  PASS_REGULAR_EXPRESSION "random's games: the race bound.*error: --most: 0 to 100000"
  FAIL_REGULAR_EXPRESSION "the falls in games not won")
add_test(NAME arena-cli-ends-usage COMMAND ${ARENA_CLI} ends some.dgn --against greedy)
set_tests_properties(arena-cli-ends-usage PROPERTIES
  PASS_REGULAR_EXPRESSION "error: ends: --player NAME is required")
# `endings` on the records of a small holochess match of the built-in players (a quiet draw
# of 20 actions keeps the exact solutions quick).
add_test(NAME arena-cli-endings
  COMMAND sh -c "mkdir -p '${ARENA_CLI_DIR}/endings' && cd '${ARENA_CLI_DIR}/endings' && \
rm -f g.dgn && '${ARENA_CLI}' --ruleset holochess --option DrawTurns=10 --engine builtin=greedy \
--engine builtin=random --pairs 3 --quiet --records g.dgn >/dev/null && \
'${ARENA_CLI}' endings g.dgn --player greedy --against random --threads 2")
set_tests_properties(arena-cli-endings PROPERTIES
  PASS_REGULAR_EXPRESSION "greedy's games against random that reach .*\nall +[1-6] +0\\.[0-9]+ .*of 6 games reached no such ending")
add_test(NAME arena-cli-endings-usage COMMAND ${ARENA_CLI} endings some.dgn --player greedy)
set_tests_properties(arena-cli-endings-usage PROPERTIES
  PASS_REGULAR_EXPRESSION "error: endings: --against P is required")
add_test(NAME arena-cli-usage COMMAND ${ARENA_CLI} --engine builtin=greedy)
set_tests_properties(arena-cli-usage PROPERTIES
  PASS_REGULAR_EXPRESSION "error: give two or more --engine")
add_test(NAME arena-cli-cautious
  COMMAND ${ARENA_CLI} --engine builtin=cautious --engine builtin=random --pairs 3 --quiet)
set_tests_properties(arena-cli-cautious PROPERTIES
  PASS_REGULAR_EXPRESSION "cautious vs random ")
add_test(NAME arena-cli-bad-builtin
  COMMAND ${ARENA_CLI} --engine builtin=timid --engine builtin=random)
set_tests_properties(arena-cli-bad-builtin PROPERTIES
  PASS_REGULAR_EXPRESSION "builtin: 'timid' is not a baseline player \\(random, greedy, cautious\\)")
# Program_options reads "-1" into an unsigned as 2^64 - 1: refused, as is a count no match has.
add_test(NAME arena-cli-negative-pairs
  COMMAND ${ARENA_CLI} --engine builtin=greedy --engine builtin=random --pairs -1)
set_tests_properties(arena-cli-negative-pairs PROPERTIES
  PASS_REGULAR_EXPRESSION "error: --pairs must not be negative, got '-1'")
add_test(NAME arena-cli-huge-pairs
  COMMAND ${ARENA_CLI} --engine builtin=greedy --engine builtin=random --pairs 99999999999)
set_tests_properties(arena-cli-huge-pairs PROPERTIES
  PASS_REGULAR_EXPRESSION "error: --pairs must be from 1 to 1000000")
add_test(NAME arena-cli-negative-seed COMMAND ${ARENA_CLI} demo --seed -1)
set_tests_properties(arena-cli-negative-seed PROPERTIES
  PASS_REGULAR_EXPRESSION "error: --seed must not be negative")
# A demo whose engine cannot be started fails.
add_test(NAME arena-cli-demo-no-engine
  COMMAND ${ARENA_CLI} demo --engine ${ARENA_CLI_DIR}/no-such-engine --depth 1)
set_tests_properties(arena-cli-demo-no-engine PROPERTIES WILL_FAIL TRUE)

# Folders, missing files and endless streams as the arena's, analyse-game's and the tuner's
# input and output files.
if(TARGET dejarik AND TARGET dejarik-tune)
  add_test(NAME arena-cli-files
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_files_cli.sh ${ARENA_CLI}
                   $<TARGET_FILE:dejarik> $<TARGET_FILE:dejarik-tune>)
endif()
