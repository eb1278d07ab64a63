file(REMOVE_RECURSE
  "CMakeFiles/test_loader.dir/unit/test_loader.c.o"
  "CMakeFiles/test_loader.dir/unit/test_loader.c.o.d"
  "CMakeFiles/test_loader.dir/unit/testutil.c.o"
  "CMakeFiles/test_loader.dir/unit/testutil.c.o.d"
  "test_loader"
  "test_loader.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_loader.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
