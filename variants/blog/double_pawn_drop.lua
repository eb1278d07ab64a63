-- Foul: Double Pawn Drop (blog rules).  Dropping a Pawn face into a file
-- that holds an own Pawn face (buried ones too), Land-Link drops included.
--
-- Under `fouls: illegal` (default) the engine never offers such a drop:
-- the Pawn face is one_per_file.  Under `fouls: lose` this file offers
-- them (onto empty squares and Land-Link towers, as landlink.lua allows)
-- and the player who makes one loses (variable 3, see double_bronze.lua).
-- In the arrangement a second Pawn in a file is always refused.
local FOUL = 2

if rules.fouls ~= "lose" then
  return
end

local own_only = rules.landlink_owner == "own"
local tiles = {"pawn_bronze", "pawn_silver", "pawn_gold"}

local function pawn_in(pos, sq, side)
  for _, p in ipairs(pos:tower(sq)) do
    if p.face == "pawn" and p.owner == side then
      return true
    end
  end
  return false
end

-- Land-Link targets a front face may take (not a Spy: back faces only).
local function linkable(pos, sq, side)
  local h = pos:height(sq)
  if h == 0 then
    return true
  end
  local top = pos:top(sq)
  if h >= 3 or (own_only and top.owner ~= side) or pawn_in(pos, sq, side) then
    return false
  end
  return top.face == "catapult" or top.face == "fortress" or top.face == "clandestinite"
end

local function file_has_pawn(pos, file, side)
  for r = 0, pos:ranks() - 1 do
    if pawn_in(pos, pos:square(file, r), side) then
      return true
    end
  end
  return false
end

effect{
  name = "double-pawn-drop",
  moves_setup = false,
  moves = function(pos)
    if pos:setup() then
      return nil
    end
    local side, hand, out = pos:side(), pos:hand(pos:side()), {}
    for file = 0, pos:files() - 1 do
      if file_has_pawn(pos, file, side) then
        for r = 0, pos:ranks() - 1 do
          local sq = pos:square(file, r)
          if linkable(pos, sq, side) then
            for _, tile in ipairs(tiles) do
              if (hand[tile .. "/pawn"] or 0) > 0 then
                out[#out + 1] = {kind = "drop", to = sq, piece = {kind = tile, face = "pawn"}}
              end
            end
          end
        end
      end
    end
    return out
  end,
  after_faces = {"pawn"},
  after_kinds = {"drop"},
  after_setup = false,
  after = function(pos, move)
    if move.setup or move.piece.face ~= "pawn" then
      return false
    end
    local file, n = pos:coords(move.to), 0
    for r = 0, pos:ranks() - 1 do
      for _, q in ipairs(pos:tower(pos:square(file, r))) do
        if q.face == "pawn" and q.owner == move.piece.owner then
          n = n + 1
        end
      end
    end
    if n >= 2 then
      pos:set_var(3, 2 * (FOUL - 1) + pos:side() + 1)
      return true
    end
    return false
  end,
  result_vars = {3},
  result = function(pos)
    local v = pos:var(3) - 2 * (FOUL - 1)
    if v == 1 or v == 2 then
      return tostring(2 - v), "foul: double pawn drop"
    end
  end,
}
