
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/engine/cli/cli.c" "CMakeFiles/tiers.dir/engine/cli/cli.c.o" "gcc" "CMakeFiles/tiers.dir/engine/cli/cli.c.o.d"
  "/work/main/engine/cli/cmd_apply.c" "CMakeFiles/tiers.dir/engine/cli/cmd_apply.c.o" "gcc" "CMakeFiles/tiers.dir/engine/cli/cmd_apply.c.o.d"
  "/work/main/engine/cli/cmd_bench.c" "CMakeFiles/tiers.dir/engine/cli/cmd_bench.c.o" "gcc" "CMakeFiles/tiers.dir/engine/cli/cmd_bench.c.o.d"
  "/work/main/engine/cli/cmd_check.c" "CMakeFiles/tiers.dir/engine/cli/cmd_check.c.o" "gcc" "CMakeFiles/tiers.dir/engine/cli/cmd_check.c.o.d"
  "/work/main/engine/cli/cmd_convert.c" "CMakeFiles/tiers.dir/engine/cli/cmd_convert.c.o" "gcc" "CMakeFiles/tiers.dir/engine/cli/cmd_convert.c.o.d"
  "/work/main/engine/cli/cmd_moves.c" "CMakeFiles/tiers.dir/engine/cli/cmd_moves.c.o" "gcc" "CMakeFiles/tiers.dir/engine/cli/cmd_moves.c.o.d"
  "/work/main/engine/cli/cmd_perft.c" "CMakeFiles/tiers.dir/engine/cli/cmd_perft.c.o" "gcc" "CMakeFiles/tiers.dir/engine/cli/cmd_perft.c.o.d"
  "/work/main/engine/cli/cmd_show.c" "CMakeFiles/tiers.dir/engine/cli/cmd_show.c.o" "gcc" "CMakeFiles/tiers.dir/engine/cli/cmd_show.c.o.d"
  "/work/main/engine/cli/cmd_variants.c" "CMakeFiles/tiers.dir/engine/cli/cmd_variants.c.o" "gcc" "CMakeFiles/tiers.dir/engine/cli/cmd_variants.c.o.d"
  "/work/main/engine/cli/json.c" "CMakeFiles/tiers.dir/engine/cli/json.c.o" "gcc" "CMakeFiles/tiers.dir/engine/cli/json.c.o.d"
  "/work/main/engine/cli/main.c" "CMakeFiles/tiers.dir/engine/cli/main.c.o" "gcc" "CMakeFiles/tiers.dir/engine/cli/main.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build/CMakeFiles/tiers_static.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
