# Empty compiler generated dependencies file for tiers_obj.
# This may be replaced when dependencies are built.
