-- Check everywhere (blog rules, decision 1): no move or placement may
-- leave the mover's Commander in check -- the engine's strict legality
-- does that in both phases -- and a side in check with no legal move has
-- lost, in the arrangement too.  The engine's status calls a position
-- without moves in the arrangement a stalemate; with the default
-- `stalemate: loss` that is the same loss, so this hook is needed only
-- under `stalemate: draw`.
if rules.stalemate ~= "loss" then
  effect{
    name = "check-everywhere",
    result = function(pos)
      if not pos:setup() or not pos:in_check() or pos:has_legal_move() then
        return nil
      end
      return tostring(1 - pos:side()), "checkmate"
    end,
  }
end
