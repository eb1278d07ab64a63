-- corners.lua - the Lua API at the four corners of the board
-- (tests/unit/test_corners.c).  Every hook insists that the squares it is
-- given are square names: the last square of a 16x16 board (p16, 255) was
-- once the engine's "no square", and hooks saw move.to == nil there.

local function need(sq, what)
  if type(sq) ~= "string" then
    error(what .. " is " .. tostring(sq) .. ", not a square name", 2)
  end
end

-- The corners of this board and the one opposite each.
local function corners(pos)
  local f, r = pos:files() - 1, pos:ranks() - 1
  local a1, far1 = pos:square(0, 0), pos:square(f, 0)
  local a_top, far = pos:square(0, r), pos:square(f, r)
  return {[a1] = far, [far] = a1, [far1] = a_top, [a_top] = far1}
end

effect{
  name = "hop",
  -- an own top piece on a corner may hop to the opposite corner
  moves = function(pos)
    local list = {}
    for sq, to in pairs(corners(pos)) do
      local top = pos:top(sq)
      if top and top.owner == pos:side() and pos:height(to) < 3 then
        list[#list + 1] = {kind = "effect", from = sq, to = to}
      end
    end
    table.sort(list, function(a, b) return a.from < b.from end)
    return list
  end,
  apply = function(pos, move)
    need(move.from, "hop from")
    need(move.to, "hop to")
    pos:push(move.to, pos:pop(move.from))
    return false
  end,
  format = function(pos, move)
    if move.kind == "effect" then
      return "hop:" .. move.from .. ">" .. move.to
    end
  end,
  veto = function(pos, move)
    if move.kind ~= "drop" then need(move.from, move.kind .. " from") end
    need(move.to, move.kind .. " to")
    return false
  end,
  -- var 1: 1 + the index (rank * 16 + file) of the last move's target
  after = function(pos, move)
    need(move.to, move.kind .. " to (after)")
    local f, r = pos:coords(move.to)
    pos:set_var(1, r * 16 + f + 1)
    return true
  end,
  drop_ok = function(pos, piece, sq)
    need(sq, "drop_ok square")
    return pos:height(sq) < 3
  end,
  tier = function(pos, sq, index, tier)
    need(sq, "tier square")
    return nil
  end,
}
