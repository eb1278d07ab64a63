-- Foul: Double Bronze (blog rules).  After a move, two or more of the
-- mover's Bronze faces in one file -- buried ones too -- whether a Bronze
-- moved or was dropped there, or a Betrayal turned a piece into one.
--
-- Option fouls: illegal (default: the move is refused) | lose (the move is
-- played and its player loses).  Under `lose` the foul files share
-- variable 3: 2 * (foul number - 1) + side + 1 of the side that fouled.
local FOUL = 1

local function fouled(pos, move)
  local p = move.piece
  if not p or p.face ~= "bronze" then
    return false
  end
  local file, n = pos:coords(move.kind == "strike" and move.from or move.to), 0
  for _, at in ipairs(pos:find("bronze", p.owner)) do
    if pos:coords(at.square) == file then
      n = n + 1
    end
  end
  return n >= 2
end

if rules.fouls == "lose" then
  effect{
    name = "double-bronze",
    after_faces = {"bronze"},
    after_count = {on = "file", faces = {"bronze"}, owner = "mover", min = 2},
    after = function(pos, move)
      if fouled(pos, move) then
        pos:set_var(3, 2 * (FOUL - 1) + pos:side() + 1)
        return true
      end
      return false
    end,
    result_vars = {3},
    result = function(pos)
      local v = pos:var(3) - 2 * (FOUL - 1)
      if v == 1 or v == 2 then
        return tostring(2 - v), "foul: double bronze"
      end
    end,
  }
else
  effect{
    name = "double-bronze",
    veto_faces = {"bronze"},
    -- the file holds two of the mover's Bronzes: the tests are the whole
    -- rule (the same test as `fouled`), so no Lua call is needed
    veto_count = {on = "file", faces = {"bronze"}, owner = "mover", min = 2},
    veto = true,
  }
end
