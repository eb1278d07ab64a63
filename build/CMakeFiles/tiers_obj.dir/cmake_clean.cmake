file(REMOVE_RECURSE
  "CMakeFiles/tiers_obj.dir/engine/src/api.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/api.c.o.d"
  "CMakeFiles/tiers_obj.dir/engine/src/dialect_gounki.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/dialect_gounki.c.o.d"
  "CMakeFiles/tiers_obj.dir/engine/src/dialect_gungijs.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/dialect_gungijs.c.o.d"
  "CMakeFiles/tiers_obj.dir/engine/src/dialects.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/dialects.c.o.d"
  "CMakeFiles/tiers_obj.dir/engine/src/loader.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/loader.c.o.d"
  "CMakeFiles/tiers_obj.dir/engine/src/make.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/make.c.o.d"
  "CMakeFiles/tiers_obj.dir/engine/src/movegen.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/movegen.c.o.d"
  "CMakeFiles/tiers_obj.dir/engine/src/notation.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/notation.c.o.d"
  "CMakeFiles/tiers_obj.dir/engine/src/position.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/position.c.o.d"
  "CMakeFiles/tiers_obj.dir/engine/src/script.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/script.c.o.d"
  "CMakeFiles/tiers_obj.dir/engine/src/stackmove.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/stackmove.c.o.d"
  "CMakeFiles/tiers_obj.dir/engine/src/status.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/status.c.o.d"
  "CMakeFiles/tiers_obj.dir/engine/src/variant.c.o"
  "CMakeFiles/tiers_obj.dir/engine/src/variant.c.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/tiers_obj.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
