file(REMOVE_RECURSE
  "libtiers.pdb"
  "libtiers.so"
  "libtiers.so.0"
  "libtiers.so.0.1.0"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/tiers_shared.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
