file(REMOVE_RECURSE
  "CMakeFiles/test_gungi_io.dir/unit/test_gungi_io.c.o"
  "CMakeFiles/test_gungi_io.dir/unit/test_gungi_io.c.o.d"
  "CMakeFiles/test_gungi_io.dir/unit/testutil.c.o"
  "CMakeFiles/test_gungi_io.dir/unit/testutil.c.o.d"
  "test_gungi_io"
  "test_gungi_io.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_gungi_io.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
