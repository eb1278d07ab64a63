# Empty compiler generated dependencies file for tiers.
# This may be replaced when dependencies are built.
