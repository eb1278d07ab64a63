-- 1-3 Tier Exchange (blog rules): in a three-tier tower topped by the
-- mover, a tier-1 Captain trades places with the allied tier-3 piece (not
-- the Commander), and a tier-3 Captain with the allied tier-1 piece (not a
-- Catapult or Fortress).  The tier-2 piece may be either side's.  The
-- exchange is the whole move, written "e4:1=3".
--
-- Option exchange_second_clause: captain (default) | commander.  Under
-- `commander` the second clause reads, as the source text literally does,
-- "a tier-3 Commander trades with an allied tier-1 piece".
--
-- A side may not exchange in the same tower (square) on two consecutive
-- turns of its own: variable 1 (Black) / 2 (White) holds the square code
-- of the side's exchange on its last turn, cleared by its next other move.
local commander_clause = rules.exchange_second_clause == "commander"
local high_mover = commander_clause and "commander" or "captain"
local tier1_bound = {catapult = true, fortress = true}

-- Each square's code (what variables 1 and 2 hold) and its exchange move,
-- made once, as a fixed move: returned, it costs the engine one lookup.
local CODE, EXCHANGE = {}, {}
for r = 0, rules.ranks - 1 do
  for f = 0, rules.files - 1 do
    local sq = string.char(97 + f) .. (r + 1)
    CODE[sq] = r * 16 + f + 1
    EXCHANGE[sq] = fixed_move{kind = "effect", from = sq, to = sq, tier = 1, arg = 3}
  end
end

local function exchangeable(pos, sq, side)
  if pos:height(sq) ~= 3 then
    return false
  end
  local low, high = pos:piece(sq, 1), pos:piece(sq, 3)
  if low.owner ~= side or high.owner ~= side then
    return false
  end
  if low.face == "captain" and high.face ~= "commander" then
    return true
  end
  return high.face == high_mover and not tier1_bound[low.face]
end

local function listed(out, move)
  for i = 1, #out do
    if out[i] == move then
      return true
    end
  end
  return false
end

-- The exchanges in the towers of the pieces found (pos:find), once each.
local function add_exchanges(pos, out, found, side, banned)
  for i = 1, #found do
    local sq = found[i].square
    local move = EXCHANGE[sq]
    if CODE[sq] ~= banned and not listed(out, move) and exchangeable(pos, sq, side) then
      out[#out + 1] = move
    end
  end
end

effect{
  name = "exchange",
  -- asked only when a three-tier tower topped by the side holds one of its
  -- Captains (or, under the commander clause, its Commander) at tier 1 or
  -- 3, in play
  moves_count = {
    faces = commander_clause and {"captain", "commander"} or {"captain"},
    owner = "mover",
    tiers = {1, 3},
    heights = {3},
    top = "mover",
  },
  -- the answer depends only on those towers, the side and the variables:
  -- the engine may remember it
  moves_pure = true,
  moves_setup = false,
  moves = function(pos)
    if pos:setup() then
      return nil
    end
    local side = pos:side()
    local banned, out = pos:var(1 + side), {}
    add_exchanges(pos, out, pos:find("captain", side), side, banned)
    if commander_clause then
      add_exchanges(pos, out, pos:find("commander", side), side, banned)
    end
    return out
  end,
  apply = function(pos, move)
    local sq = move.from
    local low, high = pos:piece(sq, 1), pos:piece(sq, 3)
    pos:replace(sq, 1, high)
    pos:replace(sq, 3, low)
    pos:set_var(1 + pos:side(), CODE[sq])
    return false
  end,
  -- The memory is cleared by the side's next move of another kind.
  after_vars = {1, 2},
  after = function(pos, move)
    if move.effect == "exchange" then
      return false
    end
    local i = 1 + pos:side()
    if pos:var(i) ~= 0 then
      pos:set_var(i, 0)
    end
    return false
  end,
  format = function(pos, move)
    if move.kind == "effect" then
      return move.from .. ":1=3"
    end
  end,
}
