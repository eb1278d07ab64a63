file(REMOVE_RECURSE
  "libtiers.a"
  "libtiers.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/tiers_static.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
