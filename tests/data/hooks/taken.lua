-- expand_taken alone: a capture of a rook, by whatever piece, comes in two
-- variants (as it is, and "/t"); no other move is concerned.  The pieces
-- that capture are none an expand hook concerns by their face, so the
-- engine finds these captures among moves it otherwise passes over.
effect{
  name = "trophy",
  expand_taken = {"rook"},
  expand_kinds = {"capture"},
  expand = {{}, {arg = 1}},
  format = function(pos, move)
    if move.effect == "trophy" and move.arg == 1 then
      return "/t"
    end
  end,
}
