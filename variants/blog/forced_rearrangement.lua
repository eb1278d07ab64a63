-- Forced Rearrangement (blog rules): a captured Lance (by a mobile or an
-- immobile strike) shows the Catapult or Fortress on its other side, and
-- the capturer must place that piece at once on an empty square of its
-- own territory, as part of the same move.  Each square is a variant of
-- the move, written with the placement as a suffix: "e5xe6/C*c2".  Empty
-- squares are counted after the capture, so the striker's own square may
-- be one.  With no empty square the tile goes to hand as a Lance.
--
-- The engine's capture rule already put the tile into the capturer's hand
-- turned over (the Catapult or Fortress face); the after hook takes it
-- out again and places it, or turns it back into a Lance.
--
-- The squares are counted on the position before the move (expand_before:
-- the engine makes no move to ask): a capture leaves its square occupied
-- (by the capturer), a strike its tower, and no after hook empties or
-- fills a square for a Lance taken; only the capturer's square is emptied
-- when it stood alone.
local letter = {catapult = "C", fortress = "F"}
-- the two tiles with a Lance back, as the edit functions take them (made
-- once: the after hook runs for every Lance taken, in each generation).
-- The front shows a face of its own, so its name is enough (the cheapest
-- argument); the Lance is on both tiles, so the back needs a table.
local FRONT, BACK = {}, {}
for tile in pairs(letter) do
  FRONT[tile] = tile
  BACK[tile] = {kind = tile, flipped = true}
end

-- The Lance the move takes, or nil (a move table's fields are read
-- through a metatable: each is read once).
local function lance_taken(move)
  local taken = move.taken
  if taken ~= nil and taken.face == "lance" then
    return taken
  end
end

-- The squares of each side's first three ranks (Black's are ranks 1-3),
-- by index (as pos:token takes it: reading a square so is the cheapest),
-- and the variant placing the tile on each, made once with fixed_variant
-- (the engine reads it with one lookup).
local TERRITORY, PLACE = {[0] = {}, [1] = {}}, {[0] = {}, [1] = {}}
local INDEX = {} -- square name -> index
local OUT = {} -- the list the hook returns, filled again at each call
for side = 0, 1 do
  for i = 0, 2 do
    local rank = side == 0 and i or rules.ranks - 1 - i
    for f = 0, rules.files - 1 do
      local n = #TERRITORY[side] + 1
      TERRITORY[side][n] = 1 + f + rank * rules.files
      INDEX[string.char(97 + f) .. (rank + 1)] = TERRITORY[side][n]
      PLACE[side][n] = fixed_variant{path = {string.char(97 + f) .. (rank + 1)}}
    end
  end
end

effect{
  name = "forced-rearrangement",
  expand_taken = {"lance"},
  expand_kinds = {"capture", "strike"},
  expand_before = true,
  expand = function(pos, move)
    local taken = move.taken -- (lance_taken, inlined: a call per move saved)
    if taken == nil or taken.face ~= "lance" then
      return nil
    end
    local out, n, owner = OUT, 0, move.piece.owner
    local squares, place, token = TERRITORY[owner], PLACE[owner], pos.token
    -- the capturer's square, by index, if it stood alone there
    local left = move.kind == "capture" and pos:height(move.from) == 1 and INDEX[move.from]
    for i = 1, #squares do
      local sq = squares[i]
      if sq == left or not token(pos, sq) then
        n = n + 1
        out[n] = place[i]
      end
    end
    for i = n + 1, #out do out[i] = nil end
    if n == 0 then
      return nil -- the move as it is: the Lance goes to hand
    end
    return out
  end,
  after_taken = {"lance"},
  after_kinds = {"capture", "strike"},
  after = function(pos, move)
    local taken = move.taken -- (lance_taken, inlined: a call per move saved)
    if taken == nil or taken.face ~= "lance" then
      return false
    end
    local me, tile = pos:side(), taken.kind
    pos:to_hand(me, FRONT[tile], -1)
    local sq = move.path[1]
    if sq then
      pos:push(sq, FRONT[tile], me)
    else
      pos:to_hand(me, BACK[tile])
    end
    return true
  end,
  format = function(pos, move)
    local sq = move.path[1]
    if sq and move.kind ~= "effect" then
      local taken = lance_taken(move)
      if taken then
        return "/" .. letter[taken.kind] .. "*" .. sq
      end
    end
  end,
}
