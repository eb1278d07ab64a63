# Empty compiler generated dependencies file for test_loader.
# This may be replaced when dependencies are built.
