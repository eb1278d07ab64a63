-- shared_capture.lua: captures of shared pieces.  The engine sees a shared
-- piece as the mover's own, so it never offers to take one; this effect
-- adds those captures: the mover's King, or a shared piece, taking a
-- shared piece on a square of its pattern (the taken piece goes back to
-- the shared hand, and the capturer turns).  Never offered: the King
-- taking a piece that gives check, and a checking piece capturing (it
-- belongs to the opponent this turn).  Option own_shared_capture:
--   allow  (default) any other such capture, checking piece or not;
--   forbid only a shared piece taking a piece that gives check.
--
-- The captures come in the order of the capturer's square, then of its
-- pattern (gufuu.LIST): that order is the order of the moves.
local allow = rules.own_shared_capture ~= "forbid"
local N, NAME, covers, CODE, mask = gufuu.N, gufuu.NAME, gufuu.covers, gufuu.CODE, gufuu.mask
local KING_LIST = gufuu.LIST.king
-- the board code (common.lua): the fields this rule reads
local ZR <const>, AR <const>, K0B <const>, K1B <const> = 15, 21, 27, 33
local ZB <const>, AB <const>, K0F <const>, K1F <const> = 39, 45, 51, 56
local ODD <const>, KINGS <const> = 0x7ff6, 0x240
gufuu.check_fields{ZR = ZR, AR = AR, K0B = K0B, K1B = K1B, ZB = ZB, AB = AB, K0F = K0F,
                   K1F = K1F, ODD = ODD, KINGS = KINGS}
assert(K1F == K0F + 5)                      -- side s's King field: K0F + 5 * s

-- pos:occupied and pos:side, looked up once (as in common.lua)
local occupied, side_of
occupied = function(pos)
  occupied = pos.occupied
  return occupied(pos)
end
side_of = function(pos)
  side_of = pos.side
  return side_of(pos)
end

-- CAPTURE[i][j]: the move of a capture from square i to j, made once with
-- fixed_move (checked now; a returned one costs the engine one lookup).
local CAPTURE = {}
for i = 1, N do
  CAPTURE[i] = {}
  for j = 1, N do
    CAPTURE[i][j] = fixed_move{kind = "capture", from = NAME[i], to = NAME[j]}
  end
end

-- Any board: every piece of the mover's or shared, that gives no check,
-- takes every shared piece in its pattern that the option allows.
local checking = {}   -- scratch: checking[i], square i gives check
local function general(pos, side)
  local b, list, n = gufuu.scan(pos), {}, 0
  for i = 1, N do checking[i] = covers(b, i) end
  for i = 1, N do
    local p = b[i]
    if p and (p.owner == 2 or p.owner == side) and not checking[i] then
      local reach, shared = p.list[i], p.owner == 2
      for k = 1, #reach do
        local j = reach[k]
        local t = b[j]
        if t and t.owner == 2 and (shared and (allow or checking[j]) or
                                   not shared and allow and not checking[j]) then
          n = n + 1
          list[n] = CAPTURE[i][j]
        end
      end
    end
  end
  return list
end

-- A Gufuu board, from its code (common.lua).  The captures are those of
-- `general`, in the same order.  Which of the four there are (the mover's
-- King takes the Kaze, or the Arashi; the Kaze takes the Arashi; the
-- Arashi takes the Kaze), where the King stands and faces and where the
-- shared pieces stand make a small key (KZ .. AZ above the King's field
-- of the code, the Kaze's and the Arashi's square masks above those), and
-- the list of each key is made once (LISTS) and returned as it is.
local KZ <const>, KA <const>, ZA <const>, AZ <const> = 1 << 5, 1 << 6, 1 << 7, 1 << 8

-- KING_REACH[i]: the squares the King reaches from square i, the same
-- whichever way it faces (only the order of its pattern turns).
local KING_REACH = {}
for i = 1, N do
  KING_REACH[i] = mask(gufuu.REACH.king[0][i])
  for dir = 1, 3 do assert(mask(gufuu.REACH.king[dir][i]) == KING_REACH[i]) end
end

-- The square of a one-square mask, 0 for none.
local function square(m)
  for i = 1, N do
    if m == 1 << (i - 1) then return i end
  end
  return 0
end

-- The captures of a key, in the order of `general`: by the capturer's
-- square, a King's in the order of its pattern.
local function captures(key)
  local ks, dir = key & 7, key >> 3 & 3
  local zs, as = square(key >> 9 & 63), square(key >> 15 & 63)
  local list = {}
  for i = 1, N do
    if i == ks then
      for _, j in ipairs(KING_LIST[dir][ks]) do
        if (j == zs and key & KZ ~= 0) or (j == as and key & KA ~= 0) then
          list[#list + 1] = CAPTURE[ks][j]
        end
      end
    elseif i == zs and key & ZA ~= 0 then
      list[#list + 1] = CAPTURE[zs][as]
    elseif i == as and key & AZ ~= 0 then
      list[#list + 1] = CAPTURE[as][zs]
    end
  end
  return list
end
local LISTS = setmetatable({}, {__index = function(t, key)
  local list = captures(key)
  t[key] = list
  return list
end})

-- BOARD[board key]: the key of LISTS but for the King's facing (which
-- orders the King's captures only), or false for no capture.  A board
-- key is the code's counts and fields ZR to AB (the shared pieces, both
-- Kings' squares) and, above them, the mover's King's square: a solve
-- asks about some 10,000 of them, 20 times each on the average, so BOARD
-- keeps each answer, worked out at the first ask.  nil: a board
-- gufuu.code does not take, which goes the general way.
local BOARD_BITS <const> = (1 << (AB + 6)) - 1
local BOARD = setmetatable({}, {__index = function(t, key)
  if (key & ODD) ~= KINGS then return nil end
  local kings = (key >> K0B | key >> K1B) & 63
  local zr, ar = key >> ZR & 63, key >> AR & 63     -- the shared pieces' reach
  local zb, ab = key >> ZB & 63, key >> AB & 63     -- and squares
  local zc, ac = zr & kings == kings, ar & kings == kings   -- giving check?
  local k = key >> (AB + 6)                         -- the mover's King's square
  local near = KING_REACH[k]
  if allow then
    -- a shared piece that gives check is not taken by the King, and takes
    -- nothing
    if not zc and near & zb ~= 0 then k = k | KZ end
    if not ac and near & ab ~= 0 then k = k | KA end
    if not zc and zr & ab ~= 0 then k = k | ZA end
    if not ac and ar & zb ~= 0 then k = k | AZ end
  else
    -- only a shared piece that gives none takes one that gives check
    if ac and not zc and zr & ab ~= 0 then k = k | ZA end
    if zc and not ac and ar & zb ~= 0 then k = k | AZ end
  end
  local lists_key = k >= KZ and k | zb << 9 | ab << 15
  t[key] = lists_key
  return lists_key
end})

effect{
  name = "shared-capture",
  moves_setup = false,
  moves = function(pos)
    local side = side_of(pos)
    local i1, t1, i2, t2, i3, t3, i4, t4, extra = occupied(pos)   -- gufuu.code
    local CODE, c = CODE, nil
    if t4 then
      if not extra then c = CODE[t1][i1] + CODE[t2][i2] + CODE[t3][i3] + CODE[t4][i4] end
    elseif t3 then
      c = CODE[t1][i1] + CODE[t2][i2] + CODE[t3][i3]
    end
    if not c then return general(pos, side) end
    local king = c >> (K0F + 5 * side) & 31          -- the mover's King: square | facing << 3
    local key = BOARD[(c & BOARD_BITS) | (king & 7) << (AB + 6)]
    if not key then
      if key == nil then return general(pos, side) end
      return nil                                      -- nothing to take
    end
    return LISTS[key | king]
  end,
}
