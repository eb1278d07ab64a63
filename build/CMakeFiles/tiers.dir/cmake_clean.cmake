file(REMOVE_RECURSE
  "CMakeFiles/tiers.dir/engine/cli/cli.c.o"
  "CMakeFiles/tiers.dir/engine/cli/cli.c.o.d"
  "CMakeFiles/tiers.dir/engine/cli/cmd_apply.c.o"
  "CMakeFiles/tiers.dir/engine/cli/cmd_apply.c.o.d"
  "CMakeFiles/tiers.dir/engine/cli/cmd_bench.c.o"
  "CMakeFiles/tiers.dir/engine/cli/cmd_bench.c.o.d"
  "CMakeFiles/tiers.dir/engine/cli/cmd_check.c.o"
  "CMakeFiles/tiers.dir/engine/cli/cmd_check.c.o.d"
  "CMakeFiles/tiers.dir/engine/cli/cmd_convert.c.o"
  "CMakeFiles/tiers.dir/engine/cli/cmd_convert.c.o.d"
  "CMakeFiles/tiers.dir/engine/cli/cmd_moves.c.o"
  "CMakeFiles/tiers.dir/engine/cli/cmd_moves.c.o.d"
  "CMakeFiles/tiers.dir/engine/cli/cmd_perft.c.o"
  "CMakeFiles/tiers.dir/engine/cli/cmd_perft.c.o.d"
  "CMakeFiles/tiers.dir/engine/cli/cmd_show.c.o"
  "CMakeFiles/tiers.dir/engine/cli/cmd_show.c.o.d"
  "CMakeFiles/tiers.dir/engine/cli/cmd_variants.c.o"
  "CMakeFiles/tiers.dir/engine/cli/cmd_variants.c.o.d"
  "CMakeFiles/tiers.dir/engine/cli/json.c.o"
  "CMakeFiles/tiers.dir/engine/cli/json.c.o.d"
  "CMakeFiles/tiers.dir/engine/cli/main.c.o"
  "CMakeFiles/tiers.dir/engine/cli/main.c.o.d"
  "tiers"
  "tiers.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/tiers.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
