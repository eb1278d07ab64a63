-- A veto with veto_pure: its answer depends only on the position after
-- the move, so the engine asks once for each such position, whatever the
-- move, the ply or the clock.  It refuses a King on d1.
effect{
  name = "off-d1",
  veto_faces = {"king"},
  veto_pure = true,
  veto = function(pos, move)
    return pos:top("d1") ~= nil
  end,
}
