-- Foul: Pawn-drop checkmate (blog rules, decision 8).  A Pawn face dropped
-- (Land-Link included) that leaves the opponent checkmated.  A Pawn moved
-- on the board may mate freely.
--
-- fouls: illegal (default) refuses the drop; fouls: lose plays it and its
-- player loses (variable 5 notes the dropping side until the next move).
local function pawn_dropped(move)
  return move.kind == "drop" and not move.setup and move.piece.face == "pawn"
end

local function mated(pos)
  return pos:in_check() and not pos:has_legal_move()
end

if rules.fouls == "lose" then
  effect{
    name = "pawn-drop-checkmate",
    after_faces = {"pawn"},
    after_kinds = {"drop"},
    after_setup = false,
    after_check = true,
    after_vars = {5},
    after = function(pos, move)
      if pawn_dropped(move) then
        pos:set_var(5, pos:side() + 1)
      elseif pos:var(5) ~= 0 then
        pos:set_var(5, 0)
      end
      return false
    end,
    result_vars = {5},
    result = function(pos)
      local by = pos:var(5) - 1
      if by >= 0 and by ~= pos:side() and mated(pos) then
        return tostring(1 - by), "foul: pawn-drop checkmate"
      end
    end,
  }
else
  effect{
    name = "pawn-drop-checkmate",
    veto_faces = {"pawn"},
    veto_kinds = {"drop"},
    veto_setup = false,
    veto_check = true,
    veto = function(pos, move)
      return pawn_dropped(move) and mated(pos)
    end,
  }
end
