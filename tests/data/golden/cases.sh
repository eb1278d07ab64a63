# The --json golden cases (sourced by tests/cli/test_golden.sh).
# golden NAME [--stdin FILE] [--loose KEY,...] ARGS...: `tiers ARGS` (from the scratch folder,
# so relative database paths stay the same) must print exactly
# tests/data/golden/NAME.json (its last line is the exit code).  @D@ is
# tests/data; timing figures (and the --loose keys, whose values
# depend on the time taken) and the source folder are normalised
# (test_golden.sh says how).  The cases run in order: the database ones
# build on each other.
golden variants         variants --variants @D@/variants --json
golden check            check gounki --json --games 0
golden check_bad        check @D@/bad_yaml/bad_type.yaml --json
golden show_gounki      show gounki --json
golden show_official    show official --json
golden show_blog        show blog --json
golden show_gufuu       show gufuu --json
golden show_features    show @D@/variants/features --json --position '5/5/1S[S:S:S]W1/1[s:s]G[s:s:s]1/5 - w - 0 0'
golden show_hands       show gungi-io --json
golden moves_gounki     moves gounki --json
golden moves_official   moves official --json
golden moves_count      moves gounki --json --count
golden moves_royal      moves @D@/variants/features-royal --json --position '4k/5/5/1g3/K4 - w - 0 0'
golden moves_batch      moves @D@/variants/features --batch @D@/golden/batch.txt
golden moves_batch_in   --stdin @D@/golden/batch.txt moves @D@/variants/features --batch -
golden moves_bad        moves gounki --json --position nonsense
golden apply            apply gounki --json a2-b3
golden apply_two        apply gounki --json a2-b3 a7-a6
golden apply_bad        apply gounki --json z9-z8
golden perft            perft gounki 2 --json
golden perft_divide     perft @D@/variants/features 2 --divide --json
golden solve            solve @D@/variants/standoff --json --save standoff.sol
golden solve_threads    solve @D@/variants/standoff --json --threads 2
golden moves_solved     moves @D@/variants/standoff --json --solved standoff.sol
golden playout          playout @D@/variants/duel --games 4 --db g.db --json
golden playout_shard    playout @D@/variants/duel --games 4 --db s.db --shard 1/2 --json
golden playout_records  playout @D@/variants/duel --games 2 --db r.db --records recs --json
golden compare          compare @D@/variants/duel @D@/variants/duel-promote --games 4 --db g.db --json
golden merge            merge g.db s.db -o m.db --json
golden export           export --db g.db -o out --variants @D@/variants --json
golden bench            --loose perft_depth,leaves,games,plies bench @D@/variants/duel --seconds 0.01 --json
# Malformed JSON lines: each gets an error object naming the line.
golden moves_batch_bad  moves @D@/variants/features --batch @D@/golden/batch_bad.txt
