-- Check everywhere (blog rules, decision 1): no move or placement may
-- leave the mover's Commander in check -- the engine's strict legality
-- does that in both phases -- and a side in check with no legal move has
-- lost, in the arrangement too.  The engine's status calls a position
-- without moves in the arrangement a stalemate (whatever the check); this
-- hook calls it checkmate, so that `stalemate: draw` cannot turn it into
-- a draw.  It is asked only in the arrangement, for a side in check.
effect{
  name = "check-everywhere",
  result_setup = true,
  result_check = true,
  result = function(pos)
    if pos:has_legal_move() then
      return nil
    end
    return tostring(1 - pos:side()), "checkmate"
  end,
}
