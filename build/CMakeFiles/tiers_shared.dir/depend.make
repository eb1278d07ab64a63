# Empty dependencies file for tiers_shared.
# This may be replaced when dependencies are built.
