-- Hostile: hooks that return the wrong types; variable 1 picks the case.
local function v(pos) return pos:var(1) end

effect{
  name = "rettype",
  moves = function(pos)
    local c = v(pos)
    if c == 1 then return "x" end
    if c == 7 or c == 8 then return {{kind = "effect", from = "a1"}} end
    if c == 9 then return {{kind = "jump"}} end
    if c == 10 then return {{kind = "move", from = "e9", to = "a1"}} end
    if c == 11 then return {{kind = "drop", to = "a1", piece = "gold"}} end
    if c == 12 then return {{kind = "effect", effect = "nosuch"}} end
    if c == 13 then return {42} end
    if c == 16 then return {{kind = "drop", to = "a1", piece = "dragon"}} end if c >= 17 then return nul_case(pos, c) end
  end,
  veto = function(pos, move) if v(pos) == 2 then return 1 end return false end,
  after = function(pos, move) if v(pos) == 3 then return {} end return false end,
  tier = function(pos, sq, index, tier)
    if v(pos) == 4 then return "2" end
    if v(pos) == 14 then return 9 end
  end,
  drop_ok = function(pos, piece, sq) if v(pos) == 5 then return nil end return true end,
  result = function(pos)
    if v(pos) == 6 then return 1 end
    if v(pos) == 15 then return "win" end
  end,
  apply = function(pos, move) if v(pos) == 7 then return "yes" end return false end,
  format = function(pos, move) if v(pos) == 8 then return 42 end return "x@" .. move.from end,
}

-- A NUL byte ends no name early: "a2\0" is not a2 (cases 17 to 22; a
-- global defined last, so that the lines above keep their numbers).
function nul_case(pos, c)
  if c == 17 then return {{kind = "move", from = "a2\0", to = "a3"}} end
  if c == 18 then return {{kind = "move\0", from = "a2", to = "a3"}} end
  if c == 19 then return {{kind = "effect", effect = "rettype\0x"}} end
  if c == 20 then return {{kind = "effect", from = "a1", path = {"b2\0"}}} end
  if c == 21 then return {{kind = "move", from = "a2", to = "a3\0zz"}} end
  if c == 22 then pos:top("a2\0") end
end
