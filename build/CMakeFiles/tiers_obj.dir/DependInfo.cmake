
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/engine/src/api.c" "CMakeFiles/tiers_obj.dir/engine/src/api.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/api.c.o.d"
  "/work/main/engine/src/dialect_gounki.c" "CMakeFiles/tiers_obj.dir/engine/src/dialect_gounki.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/dialect_gounki.c.o.d"
  "/work/main/engine/src/dialect_gungijs.c" "CMakeFiles/tiers_obj.dir/engine/src/dialect_gungijs.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/dialect_gungijs.c.o.d"
  "/work/main/engine/src/dialects.c" "CMakeFiles/tiers_obj.dir/engine/src/dialects.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/dialects.c.o.d"
  "/work/main/engine/src/loader.c" "CMakeFiles/tiers_obj.dir/engine/src/loader.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/loader.c.o.d"
  "/work/main/engine/src/make.c" "CMakeFiles/tiers_obj.dir/engine/src/make.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/make.c.o.d"
  "/work/main/engine/src/movegen.c" "CMakeFiles/tiers_obj.dir/engine/src/movegen.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/movegen.c.o.d"
  "/work/main/engine/src/notation.c" "CMakeFiles/tiers_obj.dir/engine/src/notation.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/notation.c.o.d"
  "/work/main/engine/src/position.c" "CMakeFiles/tiers_obj.dir/engine/src/position.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/position.c.o.d"
  "/work/main/engine/src/script.c" "CMakeFiles/tiers_obj.dir/engine/src/script.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/script.c.o.d"
  "/work/main/engine/src/stackmove.c" "CMakeFiles/tiers_obj.dir/engine/src/stackmove.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/stackmove.c.o.d"
  "/work/main/engine/src/status.c" "CMakeFiles/tiers_obj.dir/engine/src/status.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/status.c.o.d"
  "/work/main/engine/src/variant.c" "CMakeFiles/tiers_obj.dir/engine/src/variant.c.o" "gcc" "CMakeFiles/tiers_obj.dir/engine/src/variant.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
