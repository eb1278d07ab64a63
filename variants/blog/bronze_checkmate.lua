-- Foul: Bronze checkmate (blog rules, decision 8).  The acting piece -- the
-- one moved, striking or dropped -- is a Bronze and the opponent is then
-- checkmated (in check, no legal move; repetition not considered).
-- Exchanges and substitutions never count.
--
-- fouls: illegal (default) refuses the move.  fouls: lose plays it and
-- its player loses: the after hook notes the Bronze's side in variable 4
-- (cleared by the next move) and the result hook looks for the mate.
local function bronze_acted(move)
  return move.piece ~= nil and move.piece.face == "bronze" and move.kind ~= "effect"
end

local function mated(pos)
  return pos:in_check() and not pos:has_legal_move()
end

if rules.fouls == "lose" then
  effect{
    name = "bronze-checkmate",
    after_faces = {"bronze"},
    after_check = true,
    after_vars = {4},
    after = function(pos, move)
      if bronze_acted(move) then
        pos:set_var(4, pos:side() + 1)
      elseif pos:var(4) ~= 0 then
        pos:set_var(4, 0)
      end
      return false
    end,
    result_vars = {4},
    result = function(pos)
      local by = pos:var(4) - 1
      if by >= 0 and by ~= pos:side() and mated(pos) then
        return tostring(1 - by), "foul: bronze checkmate"
      end
    end,
  }
else
  effect{
    name = "bronze-checkmate",
    veto_faces = {"bronze"},
    veto_check = true, -- asked only for moves that give check
    veto = function(pos, move)
      return bronze_acted(move) and mated(pos)
    end,
  }
end
