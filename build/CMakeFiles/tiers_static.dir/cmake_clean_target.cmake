file(REMOVE_RECURSE
  "libtiers.a"
)
