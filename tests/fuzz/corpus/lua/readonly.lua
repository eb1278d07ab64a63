effect{
  name = "fz",
  veto = function(pos, move) pos:set_var(1, 1) return false end,
  moves = function(pos) pos:push("a1", "pawn", 0) return {} end,
}
