# Empty dependencies file for tiers_static.
# This may be replaced when dependencies are built.
