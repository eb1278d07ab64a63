-- drops.onto: script - a drop onto a tower is allowed when its top
-- piece is a stone, whoever owns it.
effect{
  name = "on-stones",
  drop_ok = function(pos, piece, sq)
    return pos:top(sq).face == "stone"
  end,
}
