# CMake generated Testfile for 
# Source directory: /work/main/tests
# Build directory: /work/main/build/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[test_gungi_io]=] "/work/main/build/tests/test_gungi_io")
set_tests_properties([=[test_gungi_io]=] PROPERTIES  ENVIRONMENT "TIERS_VARIANT_DIR=/work/main/variants" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;14;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_loader]=] "/work/main/build/tests/test_loader")
set_tests_properties([=[test_loader]=] PROPERTIES  ENVIRONMENT "TIERS_VARIANT_DIR=/work/main/variants" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;14;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_script]=] "/work/main/build/tests/test_script")
set_tests_properties([=[test_script]=] PROPERTIES  ENVIRONMENT "TIERS_VARIANT_DIR=/work/main/variants" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;14;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[cli_test_install]=] "bash" "/work/main/tests/cli/test_install.sh" "/work/main/build/tiers" "/work/main/tests")
set_tests_properties([=[cli_test_install]=] PROPERTIES  ENVIRONMENT "TIERS_VARIANT_DIR=/work/main/variants" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;23;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[cli_test_usage]=] "bash" "/work/main/tests/cli/test_usage.sh" "/work/main/build/tiers" "/work/main/tests")
set_tests_properties([=[cli_test_usage]=] PROPERTIES  ENVIRONMENT "TIERS_VARIANT_DIR=/work/main/variants" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;23;add_test;/work/main/tests/CMakeLists.txt;0;")
