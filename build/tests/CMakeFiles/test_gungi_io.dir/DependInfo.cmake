
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/tests/unit/test_gungi_io.c" "tests/CMakeFiles/test_gungi_io.dir/unit/test_gungi_io.c.o" "gcc" "tests/CMakeFiles/test_gungi_io.dir/unit/test_gungi_io.c.o.d"
  "/work/main/tests/unit/testutil.c" "tests/CMakeFiles/test_gungi_io.dir/unit/testutil.c.o" "gcc" "tests/CMakeFiles/test_gungi_io.dir/unit/testutil.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build/CMakeFiles/tiers_static.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
