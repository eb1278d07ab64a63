-- A syntax error on line 3.
effect{ name = "broken",
  after = function(pos, move) return = 1 end,
}
